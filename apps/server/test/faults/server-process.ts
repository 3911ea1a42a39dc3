import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unpackEmptyPgliteCluster } from '../helper';

export const root = fileURLToPath(new URL('../../../..', import.meta.url));

/** The real server (main.ts, run from source through tsx) in a process of its own. */
export type ServerProcess = {
  base: string;
  child: ChildProcess;
  /** What it printed so far, for failure messages. */
  output(): string;
  /** Settles when the process has exited, with its exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export const newDataDir = (name: string) => mkdtempSync(join(tmpdir(), `spotter-${name}-`));

/**
 * Starts `node --import tsx apps/server/src/main.ts` on `dataDir` (PGlite in `dataDir/db`) or on
 * `databaseUrl`, and answers once it listens and its readiness check passes.
 *
 * A PGlite data folder without a database yet gets a copy of the run's initdb output
 * (support/global-setup.ts): the server then migrates and seeds it as on any first start, without
 * PGlite's initdb (about 10 s of CPU a start). `initdb: true` leaves the folder empty, for the test of
 * the first start itself.
 */
export async function startServer({
  dataDir,
  databaseUrl,
  env = {},
  initdb = false,
}: {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  initdb?: boolean;
}): Promise<ServerProcess> {
  if (!databaseUrl && !initdb && !existsSync(join(dataDir, 'db'))) unpackEmptyPgliteCluster(dataDir);
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000',
    WEB_DIST: join(dataDir, 'no-web'),
    ...env,
  };
  delete childEnv.JWT_SECRET;
  delete childEnv.REDIS_URL;
  if (databaseUrl) childEnv.DATABASE_URL = databaseUrl;
  else delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      output += d;
      const m = /running at (http:\/\/\S+)/.exec(output);
      if (m) resolve(m[1].replace('localhost', '127.0.0.1'));
    });
    void exited.then(({ code, signal }) => reject(new Error(`server exited (${code ?? signal}):\n${output}`)));
  });
  const ready = await fetch(`${base}/api/health/ready`);
  if (ready.status !== 200) throw new Error(`server not ready: ${ready.status}\n${output}`);
  return { base, child, output: () => output, exited };
}

/** Kills the process if it still runs (for afterAll). */
export function killServer(server: ServerProcess | undefined) {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
}

export async function api<T = Record<string, unknown>>(
  base: string,
  path: string,
  { method = 'GET', token, body }: { method?: string; token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: token } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

export const DEMO_PASSWORD = 'Demo1234';

/** Logs a seeded demo account in; answers its token and id. */
export async function demoLogin(base: string, role: 'user' | 'trainer', email: string) {
  const login = await api<{ token: string }>(base, `/api/${role}s/login`, {
    method: 'POST',
    body: { email, password: DEMO_PASSWORD },
  });
  if (login.status !== 200) throw new Error(`login of ${email} failed: ${login.status} ${JSON.stringify(login.body)}`);
  const token = login.body.token;
  const me = await api<{ userData?: { _id: string }; trainerData?: { _id: string } }>(
    base,
    role === 'trainer' ? '/api/trainerData' : '/api/userData',
    { token },
  );
  return { token, id: (me.body.userData ?? me.body.trainerData)!._id };
}

const HOUR = 60 * 60_000;
/** The start of the whole hour `hours` from now, as ISO. */
export const hourFromNow = (hours: number) => new Date(Math.ceil((Date.now() + hours * HOUR) / HOUR) * HOUR).toISOString();

/** Waits until `check` answers true, polling every 50 ms, or throws after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000, what = 'condition') {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
