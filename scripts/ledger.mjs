// `npm run ledger -- check`: reconciles the ledger with the payments, the refunds and PayPal when it is
// configured (docs/decisions/042-money-ledger.md); prints each difference, exit 0 when there is none, 1 otherwise.
// PGlite (DATA_DIR): the server must be stopped (the data folder's lock). PostgreSQL (DATABASE_URL): beside the servers.
// Runs the server's own code (apps/server/src/ledger.ts) through tsx, as `npm run dev` does.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../apps/server/src/ledger.ts', import.meta.url));
// DATA_DIR stays relative to where it was run; tsx is found from this checkout
const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), cli, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
