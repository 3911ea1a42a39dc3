// Runs the Playwright specs in Debian's Chromium against the built app served by the real server.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  console.log('Chromium is missing: installing Debian’s chromium package…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const update = spawnSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update'], {
    stdio: 'inherit',
    env,
  });
  const install = spawnSync(
    sudo[0] ?? 'apt-get',
    [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'install', '-y', '--no-install-recommends', 'chromium'],
    { stdio: 'inherit', env },
  );
  if (update.status !== 0 || install.status !== 0 || !existsSync(CHROMIUM)) {
    console.error('Could not install chromium; install it with `apt-get install -y chromium` and run again.');
    process.exit(1);
  }
}
// A port nobody listens on, unless E2E_PORT names one: another checkout's run on this machine may
// hold 3100, and Playwright refuses to start its server on a port in use.
const port =
  process.env.E2E_PORT ??
  (await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(String(port)));
    });
  }));
const r = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, E2E_PORT: port, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
process.exit(r.status ?? 1);
