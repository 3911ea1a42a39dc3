import { useSyncExternalStore } from 'react';
import {
  CONSOLE_MSG,
  type CertificateStatus,
  type TAuditResponse,
  type TConsoleCertificateDecisionResponse,
  type TConsoleCertificatesResponse,
  type TConsoleBookingsQuery,
  type TConsoleBookingsResponse,
  type TConsoleLedgerResponse,
  type TConsoleRefundRequest,
  type TConsoleRefundResponse,
  type TConsoleDispute,
  type TConsoleDisputesResponse,
  type TDisputeDecision,
  type TConsoleLoginRequest,
  type TConsoleOverviewResponse,
  type TConsoleWelcomeRequest,
  type TConsoleWelcomeResponse,
  type TConsoleReportDecisionResponse,
  type TConsoleReportsResponse,
  type TOperatorReason,
  type TPeopleQuery,
  type TPeopleResponse,
  type TPersonActionResponse,
  type TPersonPageResponse,
  type ReportStatus,
} from '@spotter/shared';
import { ApiError, errorCodeOf, NETWORK_ERROR_MESSAGE } from '@/lib/api-client';

/**
 * The operator console's calls and session (docs/product.md#the-operator-console). The console is
 * apart from the member app (docs/decisions/046-operators-apart-from-members.md): its token is kept in
 * sessionStorage, never in the member's storage, so closing the tab of a shared computer ends it; it
 * is sent to the console's endpoints only, and the member's token never is.
 */
const TOKEN_KEY = 'spotter.console.token';

type ConsoleSession = { token: string | null; notice: string | null };

let session: ConsoleSession = { token: readToken(), notice: null };
const listeners = new Set<() => void>();

function readToken(): string | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null; // storage disabled: the console signs in for this page view only
  }
}

function setSession(next: ConsoleSession) {
  session = next;
  try {
    if (next.token) window.sessionStorage.setItem(TOKEN_KEY, next.token);
    else window.sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage disabled: kept in memory
  }
  for (const listener of listeners) listener();
}

export const consoleSession = {
  token: () => session.token,
  signIn: (token: string) => setSession({ token, notice: null }),
  /** Ends the session in this tab; `notice` is what the sign-in page then says (the server's message after a 401). */
  signOut: (notice: string | null = null) => setSession({ token: null, notice }),
  /**
   * The operator's "Sign out": the tab forgets the token at once (offline too), and the server is told
   * to end every console session of this operator (`POST /api/console/logout`); `keepalive` lets the
   * request outlive the page it was sent from. A failure changes nothing here: the tab is signed out.
   */
  signOutEverywhere: () => {
    const token = session.token;
    setSession({ token: null, notice: null });
    if (!token) return;
    fetch('/api/console/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` }, keepalive: true }).catch(
      () => undefined,
    );
  },
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

const snapshot = () => session;

/** The console's session, re-rendering when it starts or ends (in this tab). */
export const useConsoleSession = () => useSyncExternalStore(consoleSession.subscribe, snapshot, snapshot);

/** A failed console call: `retryAfterSeconds` is the server's Retry-After of a 429. */
export class ConsoleApiError extends ApiError {
  readonly retryAfterSeconds?: number;

  constructor(error: ApiError, retryAfterSeconds?: number) {
    super(error.status, error.message, error.errors, error.code);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

type ErrorBody = { message?: unknown; errors?: Record<string, string> };

const retryAfterOf = (response: Response) => {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
};

/**
 * Calls `/api/console…`. With `signedIn`, the console token goes along, and a 401 ends the session
 * with the server's message (a session expired, or the operator was removed).
 */
async function consoleFetch(
  path: string,
  {
    method = 'GET',
    body,
    signedIn = false,
    accept = 'application/json',
    idempotencyKey,
  }: { method?: 'GET' | 'POST'; body?: unknown; signedIn?: boolean; accept?: string; idempotencyKey?: string },
): Promise<Response> {
  const headers: Record<string, string> = { Accept: signedIn && path.endsWith('.csv') ? 'text/csv' : accept };
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = session.token;
  if (signedIn) {
    if (!token) {
      consoleSession.signOut(CONSOLE_MSG.signedOut);
      throw new ConsoleApiError(new ApiError(401, CONSOLE_MSG.signedOut));
    }
    headers.Authorization = `Bearer ${token}`;
  }
  let response: Response;
  try {
    response = await fetch(`/api/console${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ConsoleApiError(new ApiError(0, NETWORK_ERROR_MESSAGE));
  }
  if (response.ok) return response;
  let data: ErrorBody | null = null;
  if (response.headers.get('content-type')?.includes('application/json')) {
    data = (await response.json().catch(() => null)) as ErrorBody | null;
  }
  const message =
    typeof data?.message === 'string' ? data.message : `Something went wrong (${response.status}). Please try again.`;
  const error = new ConsoleApiError(
    new ApiError(response.status, message, data?.errors, errorCodeOf(data)),
    retryAfterOf(response),
  );
  // only the token this call carried: a sign-in made meanwhile stays
  if (signedIn && response.status === 401 && session.token === token) consoleSession.signOut(message);
  throw error;
}

const json = async <T>(response: Promise<Response>) => (await response).json() as Promise<T>;

export const consoleApi = {
  welcome: (body: TConsoleWelcomeRequest) => json<TConsoleWelcomeResponse>(consoleFetch('/welcome', { method: 'POST', body })),
  login: (body: TConsoleLoginRequest) => json<{ token: string }>(consoleFetch('/login', { method: 'POST', body })),
  me: () => json<{ operator: { _id: string; email: string } }>(consoleFetch('/me', { signedIn: true })),
  /** The last 30 days by UTC day, their sums and what waits for an operator. */
  overview: () => json<TConsoleOverviewResponse>(consoleFetch('/overview', { signedIn: true })),
  audit: (query: AuditQuery) => json<TAuditResponse>(consoleFetch(`/audit${searchOf(query)}`, { signedIn: true })),
  /** The CSV file of the audit log with these filters, and the name the server gives it. */
  auditCsv: async (filters: AuditFilters) => {
    const response = await consoleFetch(`/audit.csv${searchOf(filters)}`, { signedIn: true });
    const disposition = response.headers.get('content-disposition') ?? '';
    const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'spotter-audit-log.csv';
    return { blob: await response.blob(), name };
  },
  /** People by name, e-mail or city, role and status: newest first, 50 at most. */
  people: (query: TPeopleQuery) => json<TPeopleResponse>(consoleFetch(`/people${searchOf(query)}`, { signedIn: true })),
  /** A person's page: their facts, bookings, payments, reviews, the reports against them and the audit entries about them. */
  person: (id: string) => json<TPersonPageResponse>(consoleFetch(`/people/${encodeURIComponent(id)}`, { signedIn: true })),
  personAction: (id: string, action: PersonAction, body: TOperatorReason) =>
    json<TPersonActionResponse>(
      consoleFetch(`/people/${encodeURIComponent(id)}/${action}`, { method: 'POST', body, signedIn: true }),
    ),
  /** The reports with this status, oldest first (the moderation queue). */
  reports: (status: ReportStatus) =>
    json<TConsoleReportsResponse>(consoleFetch(`/reports${searchOf({ status })}`, { signedIn: true })),
  decideReport: (id: string, decision: ReportDecision, body: TOperatorReason) =>
    json<TConsoleReportDecisionResponse>(
      consoleFetch(`/reports/${encodeURIComponent(id)}/${decision}`, { method: 'POST', body, signedIn: true }),
    ),
  /** Trainers' certificates with this status: pending ones oldest first (the queue), the others newest first. */
  certificates: (status: CertificateStatus) =>
    json<TConsoleCertificatesResponse>(consoleFetch(`/certificates${searchOf({ status })}`, { signedIn: true })),
  /** Approve (a reason is optional) or reject (a reason is required) a pending certificate. */
  decideCertificate: (id: string, decision: CertificateDecision, body: { reason?: string }) =>
    json<TConsoleCertificateDecisionResponse>(
      consoleFetch(`/certificates/${encodeURIComponent(id)}/${decision}`, { method: 'POST', body, signedIn: true }),
    ),
  /** A certificate's file, as a blob: it is opened through an object URL, since a plain link cannot send the token. */
  certificateFile: async (id: string) =>
    (await consoleFetch(`/certificates/${encodeURIComponent(id)}/file`, { signedIn: true, accept: '*/*' })).blob(),
  /** Sessions by id, or a person's name or e-mail, and status: newest first, 50 at most. */
  bookings: (query: TConsoleBookingsQuery) =>
    json<TConsoleBookingsResponse>(consoleFetch(`/bookings${searchOf(query)}`, { signedIn: true })),
  /**
   * Gives back a session's card payment, `amount` dollars or (without it) all that is left. The same
   * `idempotencyKey` sent again (a retry) is the same refund (docs/product.md#refunds-by-operators).
   */
  refundBooking: (id: string, body: TConsoleRefundRequest, idempotencyKey?: string) =>
    json<TConsoleRefundResponse>(
      consoleFetch(`/bookings/${encodeURIComponent(id)}/refund`, { method: 'POST', body, signedIn: true, idempotencyKey }),
    ),
  /** The ledger check, run now. */
  ledger: () => json<TConsoleLedgerResponse>(consoleFetch('/ledger', { signedIn: true })),
  /** The disputes with this status (docs/product.md#disputes): each with its session, both people, what was paid and what is left. */
  disputes: (status: DisputeStatus) =>
    json<TConsoleDisputesResponse>(consoleFetch(`/disputes${searchOf({ status })}`, { signedIn: true })),
  /** An operator's decision of an open dispute: a full, part (`amount`, dollars) or no refund, with the reason both people read. */
  decideDispute: (id: string, body: TDisputeDecision) =>
    json<{ dispute: TConsoleDispute; message: string }>(
      consoleFetch(`/disputes/${encodeURIComponent(id)}/decide`, { method: 'POST', body, signedIn: true }),
    ),
};

/** What an operator can do to a person's account. */
export type PersonAction = 'suspend' | 'restore' | 'delete';
/** What an operator decides about a reported item: every open report of it closes. */
export type ReportDecision = 'hide' | 'restore' | 'dismiss';

/** What an operator decides about a pending certificate. */
export type CertificateDecision = 'approve' | 'reject';
/** The disputes' queue: open ones wait for an operator, decided ones are kept. */
export type DisputeStatus = 'open' | 'decided';

/** The audit log's filters, as the page keeps them in its address. */
export type AuditFilters = { action?: string; operatorId?: string; targetId?: string };
type AuditQuery = AuditFilters & { before?: string; limit?: number };

function searchOf(query: Record<string, string | number | undefined>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return search ? `?${search}` : '';
}
