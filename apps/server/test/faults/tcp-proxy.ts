import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a service (the shared PostgreSQL), which a test can cut instead of
 * stopping the service: `refuse()` drops every connection and refuses new ones (a stopped
 * database); `hang()` drops every connection and accepts new ones that never answer (a database
 * behind a dead network); `restore()` forwards again, on the same port.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let mode: 'open' | 'hang' | 'refused' = 'open';
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    if (mode !== 'open') return;
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const dropAll = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  const listening = () =>
    server.listening ? Promise.resolve() : new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    /** `url` with its host and port replaced by the proxy's. */
    through(url: string) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async refuse() {
      mode = 'refused';
      await new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        dropAll();
      });
    },
    async hang() {
      mode = 'hang';
      dropAll();
      await listening();
    },
    async restore() {
      mode = 'open';
      await listening();
    },
    async close() {
      mode = 'refused';
      dropAll();
      await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    },
  };
}
