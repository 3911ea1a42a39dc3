import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './client';

const MIGRATION_LOCK = 724_001;

/** Where the SQL files are: beside this module in source, copied beside the bundle in dist. */
export const defaultMigrationsDir = () => fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Applies the drizzle-kit SQL files in order, each in its own transaction, under an advisory
 * lock so that processes starting together take turns. Returns the names it applied.
 */
export async function migrate(database: Database, dir = defaultMigrationsDir()): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return database.withLock(MIGRATION_LOCK, async (exec) => {
    await exec(
      `create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
    const done = (await exec('select name from schema_migrations')) as unknown;
    const applied = new Set(rowsOf(done).map((r) => String(r.name)));
    const ran: string[] = [];
    for (const file of files) {
      if (applied.has(file)) continue;
      const body = readFileSync(`${dir}/${file}`, 'utf8').replaceAll('--> statement-breakpoint', '');
      try {
        await exec(`begin;\n${body}\n;insert into schema_migrations (name) values ('${file.replaceAll("'", "''")}');\ncommit;`);
      } catch (err) {
        await exec('rollback').catch(() => undefined);
        throw err;
      }
      ran.push(file);
    }
    return ran;
  });
}

/** PGlite's exec answers a list of results, pg's query one result or a list of them. */
function rowsOf(result: unknown): Array<Record<string, unknown>> {
  const list = Array.isArray(result) ? result : [result];
  const last = list[list.length - 1] as { rows?: Array<Record<string, unknown>> } | undefined;
  return last?.rows ?? [];
}
