import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { createFreshPgDatabase } from '../helper';
import { killServer, newDataDir, root, startServer, waitFor, type ServerProcess } from './server-process';
import { expectAllStored, prepareWriters, snapshot, streamWrites } from './write-stream';

/** Runs `npm run backup` / `npm run restore` (their scripts) on a database; answers exit code and output. */
function runScript(script: 'backup' | 'restore', args: string[], db: { dataDir: string; databaseUrl?: string }) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: db.dataDir };
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, [`scripts/${script}.mjs`, ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise<{ code: number | null; output: string }>((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('backup and restore', () => {
  it(
    'PGlite: the server must be stopped; the restored copy has every write acknowledged before',
    { timeout: 180_000 },
    async () => {
      const dataDir = newDataDir('backup');
      const restoreDir = newDataDir('restore');
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      cleanup.push(() => rmSync(restoreDir, { recursive: true, force: true }));
      const file = join(dataDir, 'backups', 'spotter.tar.gz');
      let server: ServerProcess | undefined = await startServer({ dataDir });
      cleanup.push(() => killServer(server));
      const writers = await prepareWriters(server.base);
      const stream = streamWrites(writers, 'backup');
      await waitFor(() => stream.count() >= 20, 60_000, 'acknowledged writes');

      // while the server holds the data folder, a backup refuses, and the server goes on
      const refused = await runScript('backup', ['--out', file], { dataDir });
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(new RegExp(`Spotter \\(pid ${server.child.pid}\\) is using .*stop the server`));
      expect(existsSync(file)).toBe(false);
      const before = stream.count();
      await waitFor(() => stream.count() > before, 30_000, 'writes after the refused backup');

      // stopped (in-flight writes finish and are answered), backed up, started again
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      await stream.done;
      const acked = snapshot(stream.acked);
      const backup = await runScript('backup', ['--out', file], { dataDir });
      expect(backup.code, backup.output).toBe(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      server = await startServer({ dataDir });
      server.child.kill('SIGTERM');
      await server.exited;

      // into an empty data folder; a folder that holds a database is replaced only with --force
      const restored = await runScript('restore', [file], { dataDir: restoreDir });
      expect(restored.code, restored.output).toBe(0);
      const again = await runScript('restore', [file], { dataDir: restoreDir });
      expect(again.code).toBe(1);
      expect(again.output).toMatch(/--force/);
      const database = await openDatabase({ dataDir: restoreDir });
      try {
        await expectAllStored(database, acked);
      } finally {
        await database.close();
      }
      expect(readdirSync(restoreDir)).not.toContain('server.pid');
    },
  );

  const pgIt = process.env.TEST_DATABASE_URL ? it : it.skip;
  pgIt(
    'PostgreSQL: pg_dump under writes; the restore has every write acknowledged before it started',
    { timeout: 180_000 },
    async () => {
      const source = (await createFreshPgDatabase())!;
      cleanup.push(() => source.drop());
      const target = (await createFreshPgDatabase())!;
      cleanup.push(() => target.drop());
      const dataDir = newDataDir('backup-pg');
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const file = join(dataDir, 'spotter.dump');
      const server = await startServer({ dataDir, databaseUrl: source.url });
      cleanup.push(() => killServer(server));
      const writers = await prepareWriters(server.base);
      const stream = streamWrites(writers, 'backup');
      await waitFor(() => stream.count() >= 20, 60_000, 'acknowledged writes');

      const acked = snapshot(stream.acked);
      const backup = await runScript('backup', ['--out', file], { dataDir, databaseUrl: source.url });
      const during = stream.count() - (acked.messages.length + acked.reviews.length + acked.bookings.length);
      await stream.stop();
      expect(backup.code, backup.output).toBe(0);
      // the writes went on while pg_dump ran
      expect(during).toBeGreaterThan(0);

      const restored = await runScript('restore', [file], { dataDir, databaseUrl: target.url });
      expect(restored.code, restored.output).toBe(0);
      const database = await openDatabase({ url: target.url });
      try {
        await expectAllStored(database, acked);
      } finally {
        await database.close();
      }
      // a database with tables is replaced only with --force
      const again = await runScript('restore', [file], { dataDir, databaseUrl: target.url });
      expect(again.code).toBe(1);
      expect(again.output).toMatch(/--force/);
      const forced = await runScript('restore', [file, '--force'], { dataDir, databaseUrl: target.url });
      expect(forced.code, forced.output).toBe(0);
    },
  );
});
