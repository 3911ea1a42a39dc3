import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { PERSON_STATUSES, type TPeopleQuery, type TPersonSummary } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { inputClasses, TextField } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { consoleApi, useConsoleSession } from '@/lib/api/console';
import { paths } from '@/lib/paths';
import { useIsPhone } from '../utils/use-is-phone';
import { CONSOLE_QUERY, ConsolePage } from './console-layout';
import { Empty, fullName, LoadError, Loading, ROLE_WORDS, STATUS_WORDS, StatusBadge } from './console-ui';

type Search = { q?: string; role?: 'user' | 'trainer'; status?: (typeof PERSON_STATUSES)[number] };

const ROLES = ['user', 'trainer'] as const;

function searchOf(params: URLSearchParams): Search {
  const search: Search = {};
  const q = params.get('q')?.trim();
  if (q) search.q = q.slice(0, 100);
  const role = ROLES.find((each) => each === params.get('role'));
  if (role) search.role = role;
  const status = PERSON_STATUSES.find((each) => each === params.get('status'));
  if (status) search.status = status;
  return search;
}

const linkClasses = 'font-semibold text-ink underline underline-offset-4';

/**
 * `/console/people` (docs/product.md#the-operator-console): members and trainers by name, e-mail or
 * city, role and status (kept in the address), newest first, each a link to their page.
 */
export function ConsolePeoplePage() {
  const { token } = useConsoleSession();
  if (!token) return <Navigate to={paths.console.login.getHref()} replace />;
  return <People token={token} />;
}

function People({ token }: { token: string }) {
  const [params, setParams] = useSearchParams();
  const search = searchOf(params);
  const isFiltered = Object.keys(search).length > 0;
  const people = useQuery({
    queryKey: [CONSOLE_QUERY, 'people', token, search],
    queryFn: () => consoleApi.people(search satisfies TPeopleQuery),
  });
  const isPhone = useIsPhone();
  const list = people.data?.people ?? [];

  const apply = (next: Search) => {
    const nextParams = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value) nextParams.set(key, value);
    setParams(nextParams);
  };

  return (
    <ConsolePage title="People" wide>
      <p className="text-muted">Members and trainers by name, e-mail or city, newest first (50 at most).</p>
      <SearchForm key={params.toString()} search={search} onApply={apply} />

      <p role="status" className="mt-6 text-sm text-muted">
        {people.isSuccess && (list.length === 1 ? '1 person shown' : `${list.length} people shown`)}
      </p>
      <div className="mt-3">
        {people.isPending ? (
          <Loading label="Loading people…" />
        ) : people.isError ? (
          <LoadError what="People could not be loaded." error={people.error} onRetry={() => void people.refetch()} />
        ) : list.length === 0 ? (
          <Empty>{isFiltered ? 'No one matches.' : 'No one has an account yet.'}</Empty>
        ) : isPhone ? (
          <PeopleList people={list} />
        ) : (
          <PeopleTable people={list} />
        )}
      </div>
    </ConsolePage>
  );
}

function SearchForm({ search, onApply }: { search: Search; onApply: (search: Search) => void }) {
  const [draft, setDraft] = useState<Search>(search);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...draft, q: draft.q?.trim() || undefined });
  };
  const hasSearch = Object.values(search).some(Boolean);
  return (
    <form
      role="search"
      aria-label="Search people"
      onSubmit={submit}
      className="mt-6 grid gap-4 rounded-2xl border border-line bg-canvas p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto] lg:items-end"
    >
      <TextField
        label="Name, e-mail or city"
        type="search"
        value={draft.q ?? ''}
        onChange={(event) => setDraft((d) => ({ ...d, q: event.target.value }))}
        maxLength={100}
        autoComplete="off"
        spellCheck={false}
      />
      <div>
        <label htmlFor="people-role" className="mb-1.5 block text-sm font-semibold text-ink">
          Role
        </label>
        <select
          id="people-role"
          value={draft.role ?? ''}
          onChange={(event) => setDraft((d) => ({ ...d, role: ROLES.find((r) => r === event.target.value) }))}
          className={cn(inputClasses, 'border-line-strong')}
        >
          <option value="">Anyone</option>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_WORDS[role]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="people-status" className="mb-1.5 block text-sm font-semibold text-ink">
          Status
        </label>
        <select
          id="people-status"
          value={draft.status ?? ''}
          onChange={(event) => setDraft((d) => ({ ...d, status: PERSON_STATUSES.find((s) => s === event.target.value) }))}
          className={cn(inputClasses, 'border-line-strong')}
        >
          <option value="">Any status</option>
          {PERSON_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_WORDS[status]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="secondary">
          Search
        </Button>
        {hasSearch && (
          <Button variant="ghost" onClick={() => onApply({})}>
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}

const reportsWords = (n: number) => (n === 0 ? 'None' : String(n));

/** Wide screens: one row a person. */
function PeopleTable({ people }: { people: TPersonSummary[] }) {
  return (
    <div className="overflow-x-auto rounded-2xl border border-line bg-canvas">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">People, newest first</caption>
        <thead className="border-b border-line bg-surface text-xs text-muted uppercase">
          <tr>
            {['Name', 'E-mail', 'City', 'Role', 'Status', 'Open reports'].map((name) => (
              <th key={name} scope="col" className="px-4 py-3 font-semibold">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {people.map((person) => (
            <tr key={person._id} className="border-t border-line align-top">
              <th scope="row" className="px-4 py-3 text-left font-normal">
                <Link to={paths.console.person.getHref(person._id)} className={linkClasses}>
                  {fullName(person)}
                </Link>
              </th>
              <td className="px-4 py-3 break-all">{person.email}</td>
              <td className="px-4 py-3">{person.city}</td>
              <td className="px-4 py-3">{ROLE_WORDS[person.role]}</td>
              <td className="px-4 py-3">
                <StatusBadge status={person.status} />
              </td>
              <td className={cn('px-4 py-3', person.openReports > 0 && 'font-semibold text-danger')}>
                {reportsWords(person.openReports)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: one card a person. */
function PeopleList({ people }: { people: TPersonSummary[] }) {
  return (
    <ul aria-label="People, newest first" className="space-y-3">
      {people.map((person) => (
        <li key={person._id} className="rounded-2xl border border-line bg-canvas p-4 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Link to={paths.console.person.getHref(person._id)} className={linkClasses}>
              {fullName(person)}
            </Link>
            <StatusBadge status={person.status} />
          </div>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
            <dt className="text-muted">E-mail</dt>
            <dd className="break-all">{person.email}</dd>
            <dt className="text-muted">City</dt>
            <dd>{person.city}</dd>
            <dt className="text-muted">Role</dt>
            <dd>{ROLE_WORDS[person.role]}</dd>
            <dt className="text-muted">Open reports</dt>
            <dd>{reportsWords(person.openReports)}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
