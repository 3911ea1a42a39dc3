// `npm run operator -- add --email <address>` | `remove --email <address>`: makes or removes an operator of the console
// (docs/product.md#the-operator-console); add prints a one-time welcome link.
// PGlite (DATA_DIR): the server must be stopped (the data folder's lock). PostgreSQL (DATABASE_URL): beside the servers.
// Runs the server's own code (apps/server/src/operator.ts) through tsx, as `npm run dev` does.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../apps/server/src/operator.ts', import.meta.url));
// DATA_DIR stays relative to where it was run; tsx is found from this checkout
const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), cli, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
