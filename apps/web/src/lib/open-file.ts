import { CERTIFICATE_RULES } from '@spotter/shared';

/** How long a file opened in a tab stays readable there (its object URL), long enough to load and save it. */
const KEEP_MS = 60_000;

const SHOWN_TYPES: readonly string[] = CERTIFICATE_RULES.types;

/**
 * Opens a file the API hands out only with a token (a plain link cannot send one): a tab opens at once,
 * on the click, so no pop-up blocker stops it, and shows the file once it has been fetched. A file of a
 * type other than a PDF or an image is never rendered in the page's origin: it is downloaded instead.
 * Where no tab could open, the file is downloaded. Rejects with the fetch's error (the tab closes).
 */
export async function openFile(load: () => Promise<Blob>, name: string) {
  const tab = window.open('', '_blank');
  try {
    const blob = await load();
    const isShown = SHOWN_TYPES.includes(blob.type);
    const url = URL.createObjectURL(isShown ? blob : new Blob([blob], { type: 'application/octet-stream' }));
    window.setTimeout(() => URL.revokeObjectURL(url), KEEP_MS);
    if (tab && isShown) {
      tab.opener = null;
      tab.location.href = url;
      return;
    }
    tab?.close();
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    tab?.close();
    throw error;
  }
}
