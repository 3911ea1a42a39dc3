import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { auditLog, operators } from '../src/db/schema';
import { lockDataDir } from '../src/lib/data-dir-lock';
import { newDataDir, root } from './faults/server-process';
import { buildTestApp, uniqueEmail, unpackEmptyPgliteCluster } from './helper';

// `npm run operator -- add|remove --email …` as a person runs it (scripts/operator.mjs): operators are
// made on the command line only (docs/product.md#the-operator-console); `add` prints a one-time welcome
// link; on PGlite only with the server stopped, and it says so.

/** Runs the script; answers its exit code and what it printed. */
function operatorCli(args: string[], db: { dataDir: string; databaseUrl?: string }) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: db.dataDir, PUBLIC_URL: 'https://spotter.example' };
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['scripts/operator.mjs', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise<{ code: number | null; output: string }>((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

/** The welcome link's token, as printed. */
const tokenOf = (output: string) =>
  new URL(output.match(/https:\/\/spotter\.example\/console\/welcome\?token=\S+/)![0]).searchParams.get('token')!;

const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('npm run operator', () => {
  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    'PGlite: refused while the server holds the data folder; stopped, add prints a one-time link and remove takes the role away',
    { timeout: 120_000 },
    async () => {
      const dataDir = newDataDir('operator');
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      unpackEmptyPgliteCluster(dataDir);
      const email = uniqueEmail('operator');

      expect((await operatorCli(['add'], { dataDir })).output).toContain('Usage: npm run operator -- add --email <address>');
      expect((await operatorCli(['add', '--email', 'not-an-address'], { dataDir })).code).toBe(1);

      // a running server holds the folder's lock (as main.ts takes it)
      const unlock = lockDataDir(dataDir);
      const refused = await operatorCli(['add', '--email', email], { dataDir });
      unlock();
      expect(refused.code, refused.output).toBe(1);
      expect(refused.output).toContain(`stop the server, run npm run operator -- add --email ${email}, then start it again`);

      const added = await operatorCli(['add', '--email', email], { dataDir });
      expect(added.code, added.output).toBe(0);
      expect(added.output).toContain(`${email} is an operator now.`);
      expect(tokenOf(added.output)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const removed = await operatorCli(['remove', '--email', email], { dataDir });
      expect(removed.code, removed.output).toBe(0);
      expect(removed.output).toContain(`${email} is no longer an operator`);
      expect((await operatorCli(['remove', '--email', email], { dataDir })).code).toBe(1);

      const database = await openDatabase({ dataDir });
      try {
        const [row] = await database.db
          .select()
          .from(operators)
          .where(sql`lower(${operators.email}) = ${email}`);
        // the link was this operator's, and removing them took it away
        expect(row.removedAt).not.toBeNull();
        expect(row.welcomeTokenHash).toBeNull();
        const entries = await database.db.select().from(auditLog).where(eq(auditLog.targetId, row.id));
        expect(entries.map((e) => [e.action, e.operatorId]).sort()).toEqual([
          ['operator.add', null],
          ['operator.remove', null],
        ]);
      } finally {
        await database.close();
      }
    },
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: runs beside a server; the printed link opens the welcome there',
    { timeout: 120_000 },
    async () => {
      const dataDir = newDataDir('operator-pg');
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const t = await buildTestApp(); // the file's PostgreSQL database, served by this app meanwhile
      cleanup.push(() => t.close());
      const email = uniqueEmail('operator');
      const added = await operatorCli(['add', '--email', email], { dataDir, databaseUrl: process.env.TEST_DATABASE_URL });
      expect(added.code, added.output).toBe(0);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/console/welcome',
        payload: { token: tokenOf(added.output), password: 'Console-pass-12' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().recoveryCodes).toHaveLength(10);
    },
  );
});
