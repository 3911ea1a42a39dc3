#!/usr/bin/env node
// Checks that drizzle-kit's metadata (apps/server/src/db/migrations/meta/) is level with schema.ts: every
// SQL migration has a journal entry, and `drizzle-kit generate` from schema.ts would write no new migration.
// drizzle-kit runs against a temporary copy of the migrations folder, never the real one.
//
//   node scripts/check-migrations.mjs           exit 1, saying what is missing, when the metadata lags
//   node scripts/check-migrations.mjs --write   adds journal entries for hand-written migrations and the
//                                               snapshot of schema.ts as the newest one's (docs/architecture.md#migrations)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const real = join(root, 'apps/server/src/db/migrations');
const schema = join(root, 'apps/server/src/db/schema.ts');
const kit = join(root, 'node_modules/.bin/drizzle-kit');
const write = process.argv.includes('--write');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const sqlFiles = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
const metaFiles = (dir) => readdirSync(join(dir, 'meta')).sort();

const scratch = mkdtempSync(join(tmpdir(), 'spotter-migrations-'));
const out = join(scratch, 'migrations');
let failed = false;
try {
  cpSync(real, out, { recursive: true });
  const journalPath = join(out, 'meta', '_journal.json');
  const journal = readJson(journalPath);
  const tags = new Set(journal.entries.map((e) => e.tag));
  const missing = sqlFiles(out)
    .map((f) => f.slice(0, -'.sql'.length))
    .filter((tag) => !tags.has(tag));
  for (const tag of missing) {
    const last = journal.entries[journal.entries.length - 1];
    journal.entries.push({
      idx: Number.parseInt(tag, 10),
      version: last.version,
      when: Math.max(Date.now(), last.when + 1),
      tag,
      breakpoints: true,
    });
  }
  writeFileSync(journalPath, JSON.stringify(journal, null, 2));

  const sqlBefore = new Set(sqlFiles(out));
  const metaBefore = new Set(metaFiles(out));
  // drizzle-kit reads snapshots through paths relative to its working directory, so it runs inside the
  // scratch folder; NODE_PATH lets schema.ts find drizzle-orm from there. It exits 0 even when it fails,
  // so success is its own words.
  const run = spawnSync(
    kit,
    ['generate', '--dialect', 'postgresql', '--schema', schema, '--out', './migrations', '--name', 'level'],
    {
      cwd: scratch,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
      env: { ...process.env, NODE_PATH: join(root, 'node_modules'), FORCE_COLOR: '0' },
    },
  );
  const said = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  const newSql = sqlFiles(out).filter((f) => !sqlBefore.has(f));
  const newSnapshots = metaFiles(out).filter((f) => !metaBefore.has(f) && f.endsWith('_snapshot.json'));
  const level = newSql.length === 0 && /No schema changes/.test(said);

  if (!level && newSql.length === 0) {
    console.error(`check-migrations: drizzle-kit generate did not finish:\n${said || run.error}`);
    failed = true;
  } else if (!write) {
    for (const tag of missing) {
      console.error(`check-migrations: ${relative(root, join(real, tag))}.sql has no journal entry or snapshot`);
    }
    if (!level) {
      const sql = readFileSync(join(out, newSql[0]), 'utf8');
      console.error(
        `check-migrations: drizzle-kit generate from schema.ts would write a new migration:\n${sql}\n` +
          'Write the migration (or change schema.ts to match the SQL), then bring the metadata level ' +
          'with `node scripts/check-migrations.mjs --write` (docs/architecture.md#migrations).',
      );
    }
    failed = missing.length > 0 || !level;
  } else {
    if (!level) {
      if (missing.length === 0) {
        console.error(
          'check-migrations: schema.ts differs from the newest snapshot and no hand-written migration is ' +
            `waiting for one. Write the migration first; drizzle-kit would write:\n${readFileSync(join(out, newSql[0]), 'utf8')}`,
        );
        failed = true;
      } else {
        // The generated snapshot becomes the newest hand-written migration's; its SQL is only shown, to
        // compare with what was written by hand.
        const newest = missing[missing.length - 1];
        const generated = readJson(journalPath).entries.at(-1);
        const sql = readFileSync(join(out, `${generated.tag}.sql`), 'utf8');
        rmSync(join(out, `${generated.tag}.sql`));
        const snapshotName = `${newest.slice(0, newest.indexOf('_'))}_snapshot.json`;
        const snapshot = readFileSync(join(out, 'meta', newSnapshots[0]), 'utf8');
        rmSync(join(out, 'meta', newSnapshots[0]));
        writeFileSync(join(real, 'meta', snapshotName), snapshot);
        console.log(
          `check-migrations: wrote meta/${snapshotName}; compare what drizzle-kit would have generated with ${newest}.sql:\n${sql}`,
        );
      }
    }
    if (!failed && missing.length > 0) {
      writeFileSync(join(real, 'meta', '_journal.json'), JSON.stringify(journal, null, 2));
      console.log(`check-migrations: journal entries added for ${missing.join(', ')}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (failed) process.exit(1);
console.log(`check-migrations: metadata level with schema.ts (${sqlFiles(real).length} migrations)`);
