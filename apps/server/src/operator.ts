import type { Config } from './config';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { lockDataDir } from './lib/data-dir-lock';
import { EmailSchema } from '@spotter/shared';
import { addOperator, removeOperatorByEmail } from './modules/console';

/**
 * `npm run operator -- add --email <address>` / `remove --email <address>` (scripts/operator.mjs):
 * makes an operator of the console, or removes one (docs/product.md#the-operator-console). `add`
 * prints a one-time welcome link (24 hours) where the operator sets a password and a second factor;
 * adding an operator again sends them through the welcome again. Operators are never made through
 * the web. PGlite (DATA_DIR) has one user at a time: the server must be stopped. On PostgreSQL
 * (DATABASE_URL) it runs beside the servers.
 */
const USAGE = 'Usage: npm run operator -- add --email <address>\n       npm run operator -- remove --email <address>';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function main() {
  const [command, flag, value, ...rest] = process.argv.slice(2);
  if ((command !== 'add' && command !== 'remove') || flag !== '--email' || !value || rest.length) fail(USAGE);
  const parsed = EmailSchema.safeParse(value);
  if (!parsed.success) fail(`${value} is not an e-mail address.\n${USAGE}`);
  const email = parsed.data;

  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  let unlock = () => undefined as void;
  if (!config.databaseUrl) {
    try {
      unlock = lockDataDir(config.dataDir);
    } catch (err) {
      fail(
        `${(err as Error).message}\nPGlite has one user at a time: stop the server, run npm run operator -- ${command} --email ${email}, then start it again.`,
      );
    }
  }
  try {
    const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
    try {
      await migrate(database);
      const deps = { db: database.db, now: () => new Date() };
      if (command === 'add') {
        const added = await addOperator(deps, email);
        const link = `${config.publicUrl}/console/welcome?token=${encodeURIComponent(added.token)}`;
        const what = added.created ? 'is an operator now' : 'is an operator again, with a new welcome link';
        console.log(`${email} ${what}${added.promoted ? ' (promoted from the member account of that e-mail)' : ''}.`);
        console.log(`Send them this one-time link (it works once, until ${added.expiresAt.toISOString()}):`);
        console.log(link);
      } else if (await removeOperatorByEmail(deps, email)) {
        console.log(`${email} is no longer an operator: their console sessions ended.`);
      } else {
        fail(`${email} is not an operator.`);
      }
    } finally {
      await database.close();
    }
  } finally {
    unlock();
  }
}

await main();
