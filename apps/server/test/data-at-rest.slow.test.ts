import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validSignUp } from './helper';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'spotter-at-rest-'));
let server: ChildProcess | undefined;

afterAll(() => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Paths under `dir` (itself included) whose mode lets anyone but the owner in. */
function tooOpen(dir: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const st = lstatSync(path);
    const mode = st.mode & 0o777;
    const want = st.isDirectory() ? 0o700 : 0o600;
    if (!st.isSymbolicLink() && mode !== want) found.push(`${relative(dir, path) || '.'} ${mode.toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return found;
}

/** Starts the real server (main.ts) under umask 022 and answers its address once it is ready. */
async function startServer(): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    WEB_DIST: join(dataDir, 'no-web'),
  };
  delete env.DATABASE_URL;
  delete env.JWT_SECRET;
  server = spawn('/bin/sh', ['-c', 'umask 022 && exec node --import tsx apps/server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stderr!.on('data', (d) => (output += d));
  const base = await new Promise<string>((resolve, reject) => {
    server!.stdout!.on('data', (d) => {
      output += d;
      const m = /running at (http:\/\/\S+)/.exec(output);
      if (m) resolve(m[1].replace('localhost', '127.0.0.1'));
    });
    server!.on('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  const ready = await fetch(`${base}/api/health/ready`);
  expect(ready.status).toBe(200);
  return base;
}

async function stopServer() {
  const exited = new Promise((resolve) => server!.once('exit', resolve));
  server!.kill('SIGTERM');
  await exited;
}

describe('data at rest', () => {
  it(
    'the data folder, database, outbox and secret are readable by the owner only, whatever the umask',
    { timeout: 180_000 },
    async () => {
      // what an older version (or a hand-made folder) left behind: readable by everyone
      chmodSync(dataDir, 0o755);
      mkdirSync(join(dataDir, 'outbox'), { mode: 0o755 });
      writeFileSync(join(dataDir, 'outbox', 'old.json'), '{}', { mode: 0o644 });
      writeFileSync(join(dataDir, 'jwt-secret'), 'a'.repeat(48), { mode: 0o644 });
      chmodSync(join(dataDir, 'outbox'), 0o755);
      chmodSync(join(dataDir, 'outbox', 'old.json'), 0o644);
      chmodSync(join(dataDir, 'jwt-secret'), 0o644);

      const base = await startServer();
      // a write to the database and a mail to the outbox while it runs
      const res = await fetch(`${base}/api/users/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(validSignUp()),
      });
      expect(res.status).toBe(201);
      const running = tooOpen(dataDir);
      await stopServer();

      const entries = readdirSync(dataDir);
      expect(entries).toEqual(expect.arrayContaining(['db', 'outbox', 'jwt-secret']));
      expect(readdirSync(join(dataDir, 'db')).length).toBeGreaterThan(5);
      expect(running).toEqual([]);
      expect(tooOpen(dataDir)).toEqual([]);
    },
  );
});
