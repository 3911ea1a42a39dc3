// Starting and watching the built server for the benchmarks.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { serverEnv as runEnv } from '../../scripts/lib/build.mjs';

export const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-1234';

/** The server's environment: production, quiet, per-IP limits out of the way. */
export const serverEnv = ({ port, dataDir, url }) =>
  runEnv({
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: url ?? '',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    JWT_SECRET,
    RATE_LIMIT_MAX: '100000000',
    // every simulated person connects from 127.0.0.1, hundreds at once
    WS_UNAUTHENTICATED_PER_IP: '100000',
    WS_UNAUTHENTICATED_MAX: '100000',
  });

/** Milliseconds until `GET /api/health/ready` answers 200, polled every 25 ms; null on timeout. */
export async function waitReady(base, timeoutMs = 60_000, started = performance.now()) {
  while (performance.now() - started < timeoutMs) {
    const ok = await fetch(`${base}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return performance.now() - started;
    await sleep(25);
  }
  return null;
}

/**
 * Spawns `args` (node's arguments) with the server environment and keeps the log lines at error
 * level or above (pino levels 50 and 60), which the report lists.
 */
export function spawnServer(root, args, env) {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const errors = [];
  const read = (stream) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) {
        if (/"level":(50|60)/.test(line) || /^(Error|TypeError|RangeError)\b/.test(line)) errors.push(line.slice(0, 2000));
      }
    });
  };
  read(child.stdout);
  read(child.stderr);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    errors,
    exited,
    /** SIGTERM (the server closes and unlocks its data dir), then SIGKILL after 15 s. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** The process's resident memory (MiB) and CPU time so far (s), from /proc. */
export function usage(pid) {
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { rss, cpu: (Number(stat[11]) + Number(stat[12])) / 100 };
  } catch {
    return { rss: NaN, cpu: NaN };
  }
}

/** Samples the RSS every 200 ms; `peak()` since the start or the last `mark()`, `overall()` since the start. */
export function rssSampler(pid) {
  let overall = 0;
  let sinceMark = 0;
  const sample = () => {
    const { rss } = usage(pid);
    if (Number.isFinite(rss)) {
      overall = Math.max(overall, rss);
      sinceMark = Math.max(sinceMark, rss);
    }
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    mark() {
      sample();
      const peak = sinceMark;
      sinceMark = 0;
      return peak;
    },
    overall: () => overall,
    stop: () => clearInterval(timer),
  };
}
