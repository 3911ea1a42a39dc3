import WebSocket from 'ws';
import { ZWsServerFrame, type TWsServerFrame } from '@spotter/shared';
import { inspectFrame } from './support/leak-check';

const WAIT_MS = 15_000;

/**
 * A test client for /api/ws: keeps every frame (checked against the shared frame union) and
 * waits on conditions — a frame that matches, or the close — never on time.
 */
export class ChatSocket {
  readonly frames: TWsServerFrame[] = [];
  private waiters: Array<() => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      const frame = ZWsServerFrame.parse(JSON.parse(text));
      inspectFrame(frame, text);
      this.frames.push(frame);
      this.waiters.forEach((w) => w());
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Opens a socket; `token` given: sends the auth frame and waits for `ready`. */
  static async open(baseUrl: string, token?: string, path = '/api/ws'): Promise<ChatSocket> {
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + path);
    const socket = new ChatSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    if (token !== undefined) {
      socket.send({ type: 'auth', token });
      await socket.next((f) => f.type === 'ready');
    }
    return socket;
  }

  send(frame: unknown) {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first frame from now on (or already received and not yet taken) that matches. */
  next<T extends TWsServerFrame>(match: (f: TWsServerFrame) => f is T): Promise<T>;
  next(match: (f: TWsServerFrame) => boolean): Promise<TWsServerFrame>;
  next(match: (f: TWsServerFrame) => boolean): Promise<TWsServerFrame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const i = this.frames.findIndex(match);
        if (i < 0) return false;
        const [frame] = this.frames.splice(i, 1);
        this.waiters = this.waiters.filter((w) => w !== check);
        clearTimeout(timer);
        resolve(frame);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`no matching frame within ${WAIT_MS} ms; have ${JSON.stringify(this.frames)}`));
      }, WAIT_MS);
      if (!check()) this.waiters.push(check);
      this.closed.then(() => {
        if (this.waiters.includes(check)) {
          this.waiters = this.waiters.filter((w) => w !== check);
          clearTimeout(timer);
          reject(new Error(`socket closed while waiting; have ${JSON.stringify(this.frames)}`));
        }
      });
    });
  }

  /** The next message frame whose text is `text`. */
  message(text: string) {
    return this.next(
      (f): f is Extract<TWsServerFrame, { type: 'message' }> => f.type === 'message' && f.message.message === text,
    ).then((f) => f.message);
  }

  /** Resolves with the close code, or fails after the wait. */
  closeCode(): Promise<number> {
    return Promise.race([
      this.closed.then((c) => c.code),
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error('socket still open')), WAIT_MS).unref()),
    ]);
  }

  close() {
    this.ws.close();
    return this.closed;
  }
}
