import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createTokenService } from '../src/lib/tokens';
import { createChatsService } from '../src/modules/chats/chats.service';
import { createChatHub } from '../src/modules/chats/chats.ws';
import { createAccount, useTestApp } from './helper';
import { ChatSocket } from './ws-client';

/**
 * The hub on its own, with a chats service whose read of a pushed message can fail (as a pool
 * timeout under load does): nothing announced is dropped in silence.
 */
describe('chat hub pushes', () => {
  const tPromise = useTestApp();
  let server: WebSocketServer;
  let base = '';
  let failReads = false;
  let hub: ReturnType<typeof createChatHub>;

  beforeAll(async () => {
    const t = await tPromise;
    const real = createChatsService({ db: t.database.db, events: t.app.events });
    const service = {
      ...real,
      messageForPush: (id: string) =>
        failReads ? Promise.reject(new Error('timeout exceeded when trying to connect')) : real.messageForPush(id),
    };
    hub = createChatHub({ db: t.database.db, tokens: createTokenService(t.config.jwtSecret), service, log: t.app.log });
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    server.on('connection', (socket) => hub.accept(socket));
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    hub?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('tells both participants to resync when the pushed message cannot be read', async () => {
    const t = await tPromise;
    const user = await createAccount(t, 'user');
    const trainer = await createAccount(t, 'trainer');
    const [userSocket, trainerSocket] = await Promise.all([
      ChatSocket.open(base, user.token, '/'),
      ChatSocket.open(base, trainer.token, '/'),
    ]);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chats/',
      headers: { authorization: user.token },
      payload: { recipientId: trainer.id, message: 'Are you free on Monday?' },
    });
    expect(sent.statusCode).toBe(201);
    const id = sent.json().message._id as string;

    failReads = true;
    await hub.onChatEvent(JSON.stringify({ k: 'm', id, u: user.id, t: trainer.id }));
    expect(await userSocket.next((f) => f.type === 'resync')).toEqual({ type: 'resync' });
    expect(await trainerSocket.next((f) => f.type === 'resync')).toEqual({ type: 'resync' });

    failReads = false;
    await hub.onChatEvent(JSON.stringify({ k: 'm', id, u: user.id, t: trainer.id }));
    expect((await trainerSocket.message('Are you free on Monday?'))._id).toBe(id);
    userSocket.ws.close();
    trainerSocket.ws.close();
  });
});
