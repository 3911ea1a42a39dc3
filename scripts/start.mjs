// `npm start`: install what is missing, build what is stale, then serve (the server migrates and seeds).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale, mtime, SERVER_NODE_ARGS, serverEnv } from './lib/build.mjs';

// fileURLToPath, not URL.pathname: a checkout in a folder with a space (%20) must work
const root = fileURLToPath(new URL('..', import.meta.url));
const run = (what, cmd, args, env = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(
      `npm start: ${what} failed (${[cmd, ...args].join(' ')} exited with ${r.status ?? r.signal ?? r.error?.message}).`,
    );
    process.exit(r.status || 1);
  }
};

const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed) || mtime(lock) > mtime(installed)) {
  console.log('Installing dependencies…');
  run('installing dependencies', 'npm', [existsSync(lock) ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  });
}

const { serverOut } = buildIfStale(root, run);

const server = spawn(process.execPath, [...SERVER_NODE_ARGS, serverOut], { cwd: root, env: serverEnv(), stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => {
  if (code) console.error(`npm start: the server exited with ${code}; its message is above.`);
  process.exit(code ?? (signal ? 0 : 1));
});
