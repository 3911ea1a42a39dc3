// `npm run cluster -- --processes 3`: Spotter as it runs on real servers, on one machine. PostgreSQL
// (DATABASE_URL), N server processes on consecutive ports with one JWT_SECRET, and nginx in front of
// them on one port, with WebSocket upgrades for /api/ws. Ctrl-C stops everything. See
// docs/operations.md and docs/decisions/021-metrics-and-cluster.md.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildIfStale, outputsOf, SERVER_NODE_ARGS, serverEnv } from './lib/build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const NGINX = '/usr/sbin/nginx';
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/spotter_cluster';

const { values: flags } = parseArgs({
  options: {
    processes: { type: 'string', default: '3' },
    port: { type: 'string', default: '8080' },
    'first-port': { type: 'string', default: '3001' },
    host: { type: 'string', default: '127.0.0.1' },
    'no-build': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (flags.help) {
  console.log(`npm run cluster -- [--processes 3] [--port 8080] [--first-port 3001] [--host 127.0.0.1] [--no-build]

Environment: DATABASE_URL (default ${DEFAULT_DATABASE_URL}; created when the server is local),
JWT_SECRET and METRICS_TOKEN (generated when unset), RATE_LIMIT_MAX (default 100000: every
simulated client of a load test comes from 127.0.0.1), LOG_LEVEL (default info).`);
  process.exit(0);
}
const processes = Number(flags.processes);
const port = Number(flags.port);
const firstPort = Number(flags['first-port']);
for (const [name, n, max] of [
  ['--processes', processes, 64],
  ['--port', port, 65535],
  ['--first-port', firstPort, 65535 - processes],
]) {
  if (!Number.isInteger(n) || n < 1 || n > max) fail(`${name} must be a whole number from 1 to ${max}`);
}
const serverPorts = Array.from({ length: processes }, (_, i) => firstPort + i);
if (serverPorts.includes(port)) fail(`--port ${port} is one of the server ports (${serverPorts.join(', ')})`);

function fail(message) {
  console.error(`npm run cluster: ${message}`);
  process.exit(1);
}
const run = (what, cmd, args, env = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0)
    fail(`${what} failed (${[cmd, ...args].join(' ')} exited with ${r.status ?? r.signal ?? r.error?.message})`);
};

// 1. nginx (Debian's package)
if (!existsSync(NGINX)) {
  console.log('Installing nginx…');
  const [cmd, ...args] = [...(process.getuid?.() === 0 ? [] : ['sudo']), 'apt-get', 'install', '-y', 'nginx'];
  run('installing nginx', cmd, args, { DEBIAN_FRONTEND: 'noninteractive' });
}

// 2. the build, as `npm start` does it: what is missing or older than its sources is built
const { serverOut, webOut } = outputsOf(root);
if (!existsSync(join(root, 'node_modules'))) fail('dependencies are not installed: run `npm ci` (or `npm start` once) first');
if (flags['no-build']) {
  if (!existsSync(serverOut) || !existsSync(webOut)) fail('--no-build, but apps/server/dist or apps/web/dist is missing');
} else {
  buildIfStale(root, run);
}

// 3. PostgreSQL: the processes share one database, which PGlite cannot be (docs/decisions/005-pglite-single-process.md)
const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const pg = createRequire(join(root, 'apps/server/package.json'))('pg');
async function ensureDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await probe.connect();
    await probe.end();
    return;
  } catch (err) {
    await probe.end().catch(() => undefined);
    const local = ['127.0.0.1', 'localhost', '[::1]', ''].includes(target.hostname);
    if (err.code !== '3D000' || !local)
      fail(
        `the cluster needs PostgreSQL, and ${target.host}${target.pathname} does not answer (${err.code ?? err.message}). ` +
          'Start PostgreSQL or set DATABASE_URL=postgres://user:password@host:5432/database.',
      );
  }
  // a local server without that database: made here, as `createdb` would
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    console.log(`Creating the database ${name}…`);
    await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}
await ensureDatabase(databaseUrl);

// 4. one runtime folder for nginx's and the servers' files: nothing goes to /var or /etc
const dir = join(tmpdir(), `spotter-cluster-${port}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(join(dir, 'nginx-temp'), { recursive: true, mode: 0o700 });

const env = {
  ...process.env,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  DATABASE_URL: databaseUrl,
  JWT_SECRET: process.env.JWT_SECRET || randomBytes(48).toString('base64'),
  METRICS_TOKEN: process.env.METRICS_TOKEN || randomBytes(24).toString('hex'),
  // nginx connects from here and appends the client's address to X-Forwarded-For
  TRUST_PROXY: '127.0.0.1',
  PUBLIC_URL: process.env.PUBLIC_URL || `http://${flags.host === '0.0.0.0' ? 'localhost' : flags.host}:${port}`,
  RATE_LIMIT_MAX: process.env.RATE_LIMIT_MAX || '100000',
  LOG_LEVEL: process.env.LOG_LEVEL || 'info',
};

console.log('Migrating and seeding (once, before the processes start)…');
run('migrating and seeding', process.execPath, ['apps/server/dist/seed.js'], {
  ...env,
  DATA_DIR: join(dir, 'seed'),
  LOG_LEVEL: 'warn',
});

// 5. the server processes, each logging to its own file
const children = [];
let stopping = false;
const exited = (child) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', resolve));
function watch(name, child) {
  children.push({ name, child });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`npm run cluster: ${name} exited (${code ?? signal}); stopping the cluster. Its log: ${dir}`);
    void stop(1);
  });
}
async function stop(status = 0) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping nginx and the servers…');
  for (const { name, child } of children) child.kill(name === 'nginx' ? 'SIGQUIT' : 'SIGTERM');
  const force = setTimeout(() => children.forEach(({ child }) => child.kill('SIGKILL')), 15_000);
  await Promise.all(children.map(({ child }) => exited(child)));
  clearTimeout(force);
  console.log(`Stopped. Logs are in ${dir}`);
  process.exit(status);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => void stop(0));

async function waitReady(base, child, what) {
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    const ok = await fetch(`${base}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  console.error(`npm run cluster: ${what} did not become ready; see ${dir}`);
  await stop(1);
}

const servers = [];
for (const [i, serverPort] of serverPorts.entries()) {
  const log = openSync(join(dir, `server-${serverPort}.log`), 'a');
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, serverOut], {
    cwd: root,
    env: serverEnv({ ...env, PORT: String(serverPort), DATA_DIR: join(dir, `data-${serverPort}`) }),
    stdio: ['ignore', log, log],
  });
  watch(`server ${i + 1} (port ${serverPort})`, child);
  servers.push({ port: serverPort, pid: child.pid, child });
}
await Promise.all(servers.map((s) => waitReady(`http://127.0.0.1:${s.port}`, s.child, `the server on port ${s.port}`)));

// 6. nginx in front, run as the current user with everything under `dir`
const conf = nginxConfig({ dir, port, host: flags.host, serverPorts, asRoot: process.getuid?.() === 0 });
writeFileSync(join(dir, 'nginx.conf'), conf);
const nginxArgs = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'nginx-error.log')];
const test = spawnSync(NGINX, [...nginxArgs, '-t', '-q'], { encoding: 'utf8' });
if (test.status !== 0) {
  console.error(test.stderr);
  console.error(`npm run cluster: nginx refused its configuration (${join(dir, 'nginx.conf')})`);
  await stop(1);
}
const nginx = spawn(NGINX, nginxArgs, { stdio: ['ignore', 'inherit', 'inherit'] });
watch('nginx', nginx);
const url = `http://${flags.host === '0.0.0.0' ? 'localhost' : flags.host}:${port}`;
await waitReady(url, nginx, 'nginx');

// what load tests (bench/soak.mjs) need to reach each process directly
writeFileSync(
  join(dir, 'cluster.json'),
  JSON.stringify(
    { url, databaseUrl, metricsToken: env.METRICS_TOKEN, servers: servers.map(({ port: p, pid }) => ({ port: p, pid })) },
    null,
    2,
  ),
  { mode: 0o600 },
);
console.log(`
Spotter is running at ${url} (nginx → ${processes} process${processes > 1 ? 'es' : ''} on ports ${serverPorts.join(', ')})
Database: ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}
Metrics:  curl -H "Authorization: Bearer ${env.METRICS_TOKEN}" http://127.0.0.1:${serverPorts[0]}/api/metrics
Logs, nginx's configuration and cluster.json: ${dir}
Ctrl-C stops everything.
`);

/** nginx's configuration: every path under `dir`, so it runs without root and leaves nothing behind. */
function nginxConfig({ dir, port, host, serverPorts, asRoot }) {
  const temp = (name) => join(dir, 'nginx-temp', name);
  const headers = `
      proxy_set_header Host $host;
      proxy_set_header X-Real-IP $remote_addr;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Request-Id $spotter_request_id;`;
  return `# generated by scripts/cluster.mjs
${asRoot ? `# started by root: the workers run as the same user, so they can use ${dir}\nuser ${userInfo().username};\n` : ''}worker_processes auto;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'nginx-error.log')} warn;

events { worker_connections 8192; }

http {
  access_log ${join(dir, 'nginx-access.log')} combined buffer=64k flush=5s;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  client_max_body_size 20m;
  server_tokens off;

  # the client's X-Request-Id when it sent one (the server keeps it only when sane), else nginx's own
  map $http_x_request_id $spotter_request_id {
    default $http_x_request_id;
    '' $request_id;
  }

  upstream spotter {
    # fewest open connections first; the zone shares the counts between nginx's workers
    zone spotter 64k;
    least_conn;
${serverPorts.map((p) => `    server 127.0.0.1:${p} max_fails=3 fail_timeout=5s;`).join('\n')}
    keepalive 64;
    # shorter than the servers' own keep-alive (KEEP_ALIVE_TIMEOUT_MS; Node's default is 5 s): nginx
    # must never send a request on a connection the server is closing, which answers 502
    keepalive_timeout 4s;
  }

  server {
    listen ${host}:${port};

    # chat pushes: the connection is upgraded and may stay open for hours
    location = /api/ws {
      proxy_pass http://spotter;
      proxy_http_version 1.1;${headers}
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection "upgrade";
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
    }

    location / {
      proxy_pass http://spotter;
      # keep-alive connections to the servers
      proxy_http_version 1.1;${headers}
      proxy_set_header Connection "";
    }
  }
}
`;
}
