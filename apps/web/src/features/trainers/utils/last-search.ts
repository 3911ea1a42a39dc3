import { paths } from '@/lib/paths';

const KEY = 'spotter:trainer-search';

/** Remembers the list's query for this tab, so a profile's 'All trainers' goes back to the same search. */
export function rememberTrainerSearch(search: string) {
  try {
    window.sessionStorage.setItem(KEY, search);
  } catch {
    // storage disabled: the link falls back to the plain list
  }
}

/** The list with the last query this tab searched for, or the plain list. */
export function lastTrainerListHref() {
  let search = '';
  try {
    search = window.sessionStorage.getItem(KEY) ?? '';
  } catch {
    search = '';
  }
  const href = paths.trainers.getHref();
  return search ? `${href}?${search}` : href;
}
