import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CHAT_LIMITS, CHAT_MSG, ROLE_MSG, SERVER_MSG, type TChatMessage } from '@spotter/shared';
import { accounts, messages } from '../src/db/schema';
import type { Mail } from '../src/modules/mail/mail.service';
import { sweepUnreadChats, UNREAD_MAIL_AFTER_MS } from '../src/modules/chats/chats.service';
import { buildTestApp, createAccount, insertTrainer, useTestApp, type TestApp } from './helper';

const t = await useTestApp();
const auth = (token?: string) => (token ? { authorization: token } : {});
const send = (payload: object, token?: string, url = '/api/chats') =>
  t.app.inject({ method: 'POST', url, payload, headers: auth(token) });
const history = (trainerId: string, token?: string, query = '') =>
  t.app.inject({ url: `/api/chats/${trainerId}${query}`, headers: auth(token) });
const messagesOf = async (trainerId: string, token: string, query = '') => {
  const res = await history(trainerId, token, query);
  expect(res.statusCode).toBe(200);
  return res.json() as { allMessages: TChatMessage[]; hasMore: boolean };
};
const conversations = async (token: string) => {
  const res = await t.app.inject({ url: '/api/conversations', headers: auth(token) });
  expect(res.statusCode).toBe(200);
  return res.json().conversations as Array<Record<string, unknown>>;
};
const markRead = (counterpartId: string, token?: string) =>
  t.app.inject({ method: 'POST', url: `/api/conversations/${counterpartId}/read`, headers: auth(token) });

const user = await createAccount(t, 'user', { firstName: 'Laila', lastName: 'Samir' });
const otherUser = await createAccount(t, 'user', { firstName: 'Hany', lastName: 'Ragab' });
const trainer = await createAccount(t, 'trainer', { firstName: 'Omar', lastName: 'Coach' });
const otherTrainer = await createAccount(t, 'trainer', { firstName: 'Mona', lastName: 'Lift' });

describe('POST /api/chats', () => {
  it('stores a message with the sender from the token, not the body, and answers it', async () => {
    const res = await send(
      {
        message: '  Hello coach  ',
        recipientId: trainer.id,
        senderId: otherUser.id,
        senderFirstName: 'Fake',
        senderLastName: 'Name',
        senderPicture: 'https://evil.example/x.png',
        messageDate: '1999-01-01',
        userToken: 'ignored',
      },
      user.token,
    );
    expect(res.statusCode).toBe(201);
    const { message } = res.json();
    expect(message).toMatchObject({
      senderId: user.id,
      recipientId: trainer.id,
      message: 'Hello coach',
      senderFirstName: 'Laila',
      senderLastName: 'Samir',
      senderPicture: '',
      readAt: null,
    });
    expect(Date.now() - Date.parse(message.messageDate)).toBeLessThan(60_000);
    expect((await messagesOf(trainer.id, user.token)).allMessages).toEqual([message]);
  });

  it('takes the spec address with its trailing slash, and a Bearer token', async () => {
    const tr = await insertTrainer(t);
    const res = await send({ message: 'Slash', recipientId: tr.id }, `Bearer ${user.token}`, '/api/chats/');
    expect(res.statusCode).toBe(201);
    expect(res.json().message.recipientId).toBe(tr.id);
  });

  it('lets a trainer answer a user, in the same conversation', async () => {
    const tr = await createAccount(t, 'trainer', { firstName: 'Reply', lastName: 'Coach' });
    const first = (await send({ message: 'Question', recipientId: tr.id }, user.token)).json().message;
    const answer = await send({ message: 'Answer', recipientId: user.id }, tr.token);
    expect(answer.statusCode).toBe(201);
    expect(answer.json().message).toMatchObject({ senderId: tr.id, recipientId: user.id, senderFirstName: 'Reply' });
    const seenByUser = (await messagesOf(tr.id, user.token)).allMessages;
    const seenByTrainer = (await messagesOf(tr.id, tr.token)).allMessages;
    expect(seenByUser.map((m) => m.message)).toEqual(['Question', 'Answer']);
    expect(seenByTrainer).toEqual(seenByUser);
    expect(seenByUser[0]._id).toBe(first._id);
  });

  it('refuses visitors (401), trainer to trainer (403, the spec toast) and user to user (403), storing nothing', async () => {
    const visitor = await send({ message: 'Hi', recipientId: trainer.id });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().message).toBe(ROLE_MSG.onlyUsersMessage);

    const tt = await send({ message: 'Hi colleague', recipientId: otherTrainer.id }, trainer.token);
    expect(tt.statusCode).toBe(403);
    expect(tt.json().message).toBe("Trainers can't message other trainers!");
    expect(tt.json().message).toBe(ROLE_MSG.trainersCantMessage);

    const uu = await send({ message: 'Hi friend', recipientId: otherUser.id }, user.token);
    expect(uu.statusCode).toBe(403);
    expect(uu.json().message).toBe(CHAT_MSG.usersCantMessageUsers);

    const self = await send({ message: 'Hi me', recipientId: user.id }, user.token);
    expect(self.statusCode).toBe(404);

    expect((await messagesOf(otherTrainer.id, otherTrainer.token)).allMessages).toEqual([]);
    const stored = await t.database.db.select().from(messages).where(eq(messages.userId, otherUser.id));
    expect(stored).toEqual([]);
  });

  it('refuses a token whose account changed or was deleted (401 before any recipient check), storing nothing', async () => {
    const changed = await createAccount(t, 'user');
    const deleted = await createAccount(t, 'user');
    await t.database.db.update(accounts).set({ tokenVersion: 1 }).where(eq(accounts.id, changed.id));
    await t.database.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, deleted.id));
    for (const who of [changed, deleted]) {
      for (const recipientId of [trainer.id, 'nope', who.id]) {
        const res = await send({ message: 'Still me?', recipientId }, who.token);
        expect(res.statusCode).toBe(401);
        expect(res.json().message).toBe(SERVER_MSG.badToken);
      }
    }
    expect(await t.database.db.select().from(messages).where(eq(messages.userId, changed.id))).toEqual([]);
    expect(await t.database.db.select().from(messages).where(eq(messages.userId, deleted.id))).toEqual([]);
    expect((await send({ message: 'Hi', recipientId: trainer.id }, 'garbage.token.here')).statusCode).toBe(401);
  });

  it('answers 404 for an unknown, malformed or deleted recipient', async () => {
    const gone = await insertTrainer(t);
    await t.database.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, gone.id));
    for (const recipientId of ['6f1c2b9e-0000-4000-8000-000000000000', 'nope', gone.id]) {
      const res = await send({ message: 'Anyone there?', recipientId }, user.token);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(CHAT_MSG.recipientNotFound);
    }
  });

  it.each([
    [{ message: '' }, 'message', CHAT_MSG.empty],
    [{ message: ' \n\t ' }, 'message', CHAT_MSG.empty],
    [{ message: 'x'.repeat(2001) }, 'message', CHAT_MSG.tooLong],
    [{ message: 'a\u0000b' }, 'message', undefined],
    [{ message: 42 }, 'message', CHAT_MSG.empty],
    [{ message: undefined }, 'message', CHAT_MSG.empty],
    [{ recipientId: undefined }, 'recipientId', CHAT_MSG.chooseRecipient],
  ])('rejects %j with 400 and a message on %s', async (override, field, text) => {
    const tr = await insertTrainer(t);
    const res = await send({ message: 'Fine', recipientId: tr.id, ...override }, user.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
    if (text) expect(res.json().errors?.[field]).toBe(text);
    const stored = await t.database.db.select().from(messages).where(eq(messages.trainerId, tr.id));
    expect(stored).toEqual([]);
  });

  it('accepts 2000 characters and keeps HTML as text', async () => {
    const tr = await insertTrainer(t);
    const html = '<img src=x onerror=alert(1)>';
    expect((await send({ message: 'y'.repeat(2000), recipientId: tr.id }, user.token)).statusCode).toBe(201);
    expect((await send({ message: html, recipientId: tr.id }, user.token)).json().message.message).toBe(html);
  });
});

describe('GET /api/chats/:trainerId', () => {
  it('shows a user only their own conversation, and the trainer all of theirs or one with userId', async () => {
    const tr = await createAccount(t, 'trainer');
    await send({ message: 'from Laila', recipientId: tr.id }, user.token);
    await send({ message: 'from Hany', recipientId: tr.id }, otherUser.token);
    await send({ message: 'to Laila', recipientId: user.id }, tr.token);

    expect((await messagesOf(tr.id, user.token)).allMessages.map((m) => m.message)).toEqual(['from Laila', 'to Laila']);
    expect((await messagesOf(tr.id, otherUser.token)).allMessages.map((m) => m.message)).toEqual(['from Hany']);
    expect((await messagesOf(tr.id, tr.token)).allMessages.map((m) => m.message)).toEqual([
      'from Laila',
      'from Hany',
      'to Laila',
    ]);
    expect((await messagesOf(tr.id, tr.token, `?userId=${otherUser.id}`)).allMessages.map((m) => m.message)).toEqual([
      'from Hany',
    ]);
  });

  it('refuses visitors (401), another trainer (403) and a user asking for someone else (403)', async () => {
    const tr = await createAccount(t, 'trainer');
    await send({ message: 'private', recipientId: tr.id }, user.token);
    expect((await history(tr.id)).statusCode).toBe(401);
    const byOtherTrainer = await history(tr.id, otherTrainer.token);
    expect(byOtherTrainer.statusCode).toBe(403);
    expect(byOtherTrainer.json().message).toBe(CHAT_MSG.notYourConversation);
    expect(byOtherTrainer.json()).not.toHaveProperty('allMessages');
    expect((await history(tr.id, otherUser.token, `?userId=${user.id}`)).statusCode).toBe(403);
    expect((await messagesOf(tr.id, otherUser.token)).allMessages).toEqual([]);
    expect((await history('not-an-id', user.token)).statusCode).toBe(404);
  });

  it('shows a deleted sender as "Former member"', async () => {
    const tr = await createAccount(t, 'trainer');
    const leaving = await createAccount(t, 'user', { firstName: 'Gone', lastName: 'Soon' });
    await send({ message: 'bye', recipientId: tr.id }, leaving.token);
    await t.database.db
      .update(accounts)
      .set({ deletedAt: new Date(), firstName: '', lastName: '' })
      .where(eq(accounts.id, leaving.id));
    const [m] = (await messagesOf(tr.id, tr.token)).allMessages;
    expect(m).toMatchObject({ message: 'bye', senderFirstName: 'Former', senderLastName: 'member', senderPicture: '' });
    expect((await conversations(tr.token))[0]).toMatchObject({
      counterpartId: leaving.id,
      firstName: 'Former',
      lastName: 'member',
    });
  });

  it('pages backwards with before, catches up with after, and says when there is more', async () => {
    const tr = await insertTrainer(t);
    const values = Array.from({ length: 120 }, (_, i) => ({
      userId: user.id,
      trainerId: tr.id,
      senderRole: 'user' as const,
      body: `m${i}`,
    }));
    for (const v of values) await t.database.db.insert(messages).values(v);
    const bodies = (p: { allMessages: TChatMessage[] }) => p.allMessages.map((m) => m.message);
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `m${from + i}`);

    const newest = await messagesOf(tr.id, user.token);
    expect(bodies(newest)).toEqual(range(70, 120));
    expect(newest.hasMore).toBe(true);
    const older = await messagesOf(tr.id, user.token, `?before=${newest.allMessages[0]._id}`);
    expect(bodies(older)).toEqual(range(20, 70));
    expect(older.hasMore).toBe(true);
    const oldest = await messagesOf(tr.id, user.token, `?before=${older.allMessages[0]._id}`);
    expect(bodies(oldest)).toEqual(range(0, 20));
    expect(oldest.hasMore).toBe(false);

    const m99 = newest.allMessages.find((m) => m.message === 'm99')!;
    const after = await messagesOf(tr.id, user.token, `?after=${m99._id}`);
    expect(bodies(after)).toEqual(range(100, 120));
    expect(after.hasMore).toBe(false);
    const afterOldest = await messagesOf(tr.id, user.token, `?after=${oldest.allMessages[0]._id}`);
    expect(bodies(afterOldest)).toEqual(range(1, 51));
    expect(afterOldest.hasMore).toBe(true);
    const last = newest.allMessages.at(-1)!;
    expect(await messagesOf(tr.id, user.token, `?after=${last._id}`)).toEqual({ allMessages: [], hasMore: false });
  });

  it('a whole inbox answers the newest page of every conversation, not the newest 50 messages overall', async () => {
    const tr = await createAccount(t, 'trainer');
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createAccount(t, 'user')));
    const put = async (userId: string, senderRole: 'user' | 'trainer', body: string) =>
      t.database.db.insert(messages).values({ userId, trainerId: tr.id, senderRole, body });
    // two older conversations, then one with 60 newer messages
    await put(b.id, 'user', 'b0');
    await put(c.id, 'user', 'c0');
    await put(b.id, 'trainer', 'b1');
    for (let i = 0; i < 60; i++) await put(a.id, i % 2 ? 'trainer' : 'user', `a${i}`);

    const res = await history(tr.id, tr.token);
    expect(res.statusCode).toBe(200);
    const inbox = res.json() as { allMessages: TChatMessage[]; hasMore: boolean };
    expect(Object.keys(inbox).sort()).toEqual(['allMessages', 'hasMore']);
    // oldest first over the whole inbox; each conversation's newest 50 (a's first 10 are older)
    expect(inbox.allMessages.map((m) => m.message)).toEqual([
      'b0',
      'c0',
      'b1',
      ...Array.from({ length: 50 }, (_, i) => `a${i + 10}`),
    ]);
    expect(inbox.hasMore).toBe(true);
    const b1 = inbox.allMessages[2];
    expect(b1).toEqual({
      _id: expect.any(String),
      senderId: tr.id,
      recipientId: b.id,
      message: 'b1',
      messageDate: expect.any(String),
      senderFirstName: expect.any(String),
      senderLastName: expect.any(String),
      senderPicture: expect.any(String),
      readAt: null,
    });
    // one conversation, as before: its own newest page, and the older ones before it
    const ofA = await messagesOf(tr.id, tr.token, `?userId=${a.id}`);
    expect(ofA.allMessages.map((m) => m.message)).toEqual(inbox.allMessages.slice(3).map((m) => m.message));
    const older = await messagesOf(tr.id, tr.token, `?userId=${a.id}&before=${ofA.allMessages[0]._id}`);
    expect(older).toMatchObject({ hasMore: false });
    expect(older.allMessages.map((m) => m.message)).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`));

    // a short inbox says there is nothing more
    const small = await createAccount(t, 'trainer');
    await send({ message: 'only one', recipientId: small.id }, a.token);
    expect(await messagesOf(small.id, small.token)).toMatchObject({ allMessages: [{ message: 'only one' }], hasMore: false });
  });

  it('a whole inbox holds the 500 most recent conversations and says there are more', async () => {
    const tr = await createAccount(t, 'trainer');
    const tag = `inbox-${randomUUID().slice(0, 8)}`;
    // 501 users who each wrote once, the first one longest ago
    await t.database.db.execute(sql`
      with people as (
        insert into accounts (role, email, password_hash, first_name, last_name, gender, age, height, weight)
        select 'user', ${tag} || '-' || g || '@example.com', 'x', 'Writer', g::text, 'male', 30, 180, 80
        from generate_series(1, 501) g
        returning id, last_name
      )
      insert into messages (user_id, trainer_id, sender_role, body)
      select id, ${tr.id}::uuid, 'user', 'hello ' || last_name from people order by last_name::int`);
    const inbox = await messagesOf(tr.id, tr.token);
    expect(inbox.allMessages).toHaveLength(500);
    expect(inbox.allMessages[0].message).toBe('hello 2');
    expect(inbox.allMessages.at(-1)!.message).toBe('hello 501');
    expect(inbox.hasMore).toBe(true);
  });

  it('a whole inbox stops at 2,000 messages: the newest page of each of the 40 most recent conversations', async () => {
    const tr = await createAccount(t, 'trainer');
    const tag = `budget-${randomUUID().slice(0, 8)}`;
    // 42 users with 60 messages each, user 1's conversation the oldest
    await t.database.db.execute(sql`
      with people as (
        insert into accounts (role, email, password_hash, first_name, last_name, gender, age, height, weight)
        select 'user', ${tag} || '-' || g || '@example.com', 'x', 'Writer', g::text, 'male', 30, 180, 80
        from generate_series(1, 42) g
        returning id, last_name
      )
      insert into messages (user_id, trainer_id, sender_role, body)
      select id, ${tr.id}::uuid, 'user', last_name || ':' || k from people, generate_series(0, 59) k
      order by last_name::int, k`);
    expect(CHAT_LIMITS.inboxMessagesMax).toBe(2000);
    const inbox = await messagesOf(tr.id, tr.token);
    expect(inbox.allMessages).toHaveLength(2000);
    const byWriter = new Map<string, string[]>();
    for (const m of inbox.allMessages) {
      const [writer, k] = m.message.split(':');
      byWriter.set(writer, [...(byWriter.get(writer) ?? []), k]);
    }
    expect([...byWriter.keys()]).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 3)));
    for (const list of byWriter.values()) expect(list).toEqual(Array.from({ length: 50 }, (_, k) => String(k + 10)));
    expect(inbox.hasMore).toBe(true);
  });

  it('a user asking for their own id gets their whole inbox the same way; nobody else’s', async () => {
    const me = await createAccount(t, 'user');
    const [t1, t2, t3] = await Promise.all([1, 2, 3].map(() => insertTrainer(t)));
    const put = async (trainerId: string, senderRole: 'user' | 'trainer', body: string) =>
      t.database.db.insert(messages).values({ userId: me.id, trainerId, senderRole, body });
    await put(t2.id, 'user', 'to t2');
    await put(t3.id, 'trainer', 'from t3');
    for (let i = 0; i < 60; i++) await put(t1.id, 'user', `t1 ${i}`);
    // someone else's conversation with the same trainer stays out
    await send({ message: 'not mine', recipientId: t1.id }, otherUser.token);

    const inbox = await messagesOf(me.id, me.token);
    expect(inbox.allMessages.map((m) => m.message)).toEqual([
      'to t2',
      'from t3',
      ...Array.from({ length: 50 }, (_, i) => `t1 ${i + 10}`),
    ]);
    expect(inbox.hasMore).toBe(true);
    expect(inbox.allMessages[1]).toMatchObject({ senderId: t3.id, recipientId: me.id });
    // its cursors page through the user's inbox only
    const tail = await messagesOf(me.id, me.token, `?after=${inbox.allMessages[1]._id}`);
    expect(tail.allMessages.map((m) => m.message)).toEqual(Array.from({ length: 50 }, (_, i) => `t1 ${i}`));
    expect(tail.hasMore).toBe(true);
    // another user naming this user's id reads nothing of it
    expect((await messagesOf(me.id, otherUser.token)).allMessages).toEqual([]);
  });

  it('refuses a cursor from another conversation, a malformed one, and both at once', async () => {
    const tr = await createAccount(t, 'trainer');
    const mine = (await send({ message: 'mine', recipientId: tr.id }, user.token)).json().message;
    const theirs = (await send({ message: 'theirs', recipientId: tr.id }, otherUser.token)).json().message;
    const res = await history(tr.id, user.token, `?after=${theirs._id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(CHAT_MSG.badCursor);
    expect((await history(tr.id, user.token, '?before=nope')).statusCode).toBe(400);
    expect((await history(tr.id, user.token, `?before=${mine._id}&after=${mine._id}`)).statusCode).toBe(400);
    // the trainer's inbox holds both
    expect((await history(tr.id, tr.token, `?after=${mine._id}`)).json().allMessages.map((m: TChatMessage) => m.message)).toEqual(
      ['theirs'],
    );
  });
});

describe('conversations and unread counts', () => {
  it('lists conversations newest first with unread counts for both roles; read clears them', async () => {
    const me = await createAccount(t, 'user', { firstName: 'Reader', lastName: 'One' });
    const t1 = await createAccount(t, 'trainer', { firstName: 'First', lastName: 'Coach' });
    const t2 = await createAccount(t, 'trainer', { firstName: 'Second', lastName: 'Coach' });
    await send({ message: 'hi t1', recipientId: t1.id }, me.token);
    await send({ message: 'hi t2', recipientId: t2.id }, me.token);
    await send({ message: 'answer 1', recipientId: me.id }, t1.token);
    await send({ message: 'answer 2', recipientId: me.id }, t1.token);

    expect(await conversations(me.token)).toEqual([
      {
        counterpartId: t1.id,
        firstName: 'First',
        lastName: 'Coach',
        picture: '',
        lastMessage: 'answer 2',
        lastMessageDate: expect.any(String),
        unread: 2,
      },
      {
        counterpartId: t2.id,
        firstName: 'Second',
        lastName: 'Coach',
        picture: '',
        lastMessage: 'hi t2',
        lastMessageDate: expect.any(String),
        unread: 0,
      },
    ]);
    expect(await conversations(t1.token)).toEqual([
      {
        counterpartId: me.id,
        firstName: 'Reader',
        lastName: 'One',
        picture: '',
        lastMessage: 'answer 2',
        lastMessageDate: expect.any(String),
        unread: 1,
      },
    ]);

    const read = await markRead(t1.id, me.token);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ message: CHAT_MSG.markedRead, read: 2 });
    expect((await conversations(me.token))[0].unread).toBe(0);
    // reading marks only what the other side sent
    expect((await conversations(t1.token))[0].unread).toBe(1);
    const seen = (await messagesOf(t1.id, me.token)).allMessages;
    expect(seen.filter((m) => m.senderId === t1.id).every((m) => m.readAt)).toBe(true);
    expect(seen.find((m) => m.senderId === me.id)!.readAt).toBeNull();

    expect((await markRead(me.id, t1.token)).json().read).toBe(1);
    expect((await conversations(t1.token))[0].unread).toBe(0);
  });

  it('lists a deleted counterpart as "Former member", with the latest message and its date', async () => {
    const me = await createAccount(t, 'user', { firstName: 'Left', lastName: 'Behind' });
    const gone = await createAccount(t, 'trainer', { firstName: 'Gone', lastName: 'Coach' });
    await send({ message: 'first', recipientId: gone.id }, me.token);
    const last = (await send({ message: 'last words', recipientId: me.id }, gone.token)).json().message as TChatMessage;
    await t.database.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, gone.id));
    expect(await conversations(me.token)).toEqual([
      {
        counterpartId: gone.id,
        firstName: 'Former',
        lastName: 'member',
        picture: '',
        lastMessage: 'last words',
        lastMessageDate: last.messageDate,
        unread: 1,
      },
    ]);
  });

  it('answers an empty list to someone without conversations, 401 to visitors, 404 for a malformed id', async () => {
    const lonely = await createAccount(t, 'user');
    expect(await conversations(lonely.token)).toEqual([]);
    expect((await t.app.inject('/api/conversations')).statusCode).toBe(401);
    expect((await markRead(trainer.id)).statusCode).toBe(401);
    expect((await markRead('nope', user.token)).statusCode).toBe(404);
  });
});

describe('sending limit', () => {
  it('answers 429 with a message after 30 messages a minute from one account, over both addresses', async () => {
    const limited: TestApp = await buildTestApp({ RATE_LIMIT_MAX: '5' });
    try {
      const sender = await createAccount(limited, 'user');
      const tr = await insertTrainer(limited);
      for (let i = 0; i < 30; i++) {
        const url = i % 2 ? '/api/chats/' : '/api/chats';
        const res = await limited.app.inject({
          method: 'POST',
          url,
          payload: { message: `n${i}`, recipientId: tr.id },
          headers: auth(sender.token),
        });
        expect(res.statusCode).toBe(201);
      }
      const over = await limited.app.inject({
        method: 'POST',
        url: '/api/chats',
        payload: { message: 'one more', recipientId: tr.id },
        headers: auth(sender.token),
      });
      expect(over.statusCode).toBe(429);
      expect(over.json().message).toBe(CHAT_MSG.tooMany);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // another account is not affected
      const other = await createAccount(limited, 'user');
      expect(
        (
          await limited.app.inject({
            method: 'POST',
            url: '/api/chats',
            payload: { message: 'mine', recipientId: tr.id },
            headers: auth(other.token),
          })
        ).statusCode,
      ).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('unread-message mail sweep', () => {
  const capture = () => {
    const mails: Mail[] = [];
    return { mails, mailer: { send: async (m: Mail) => void mails.push(m) } };
  };
  const later = (ms: number) => new Date(Date.now() + ms);
  const sweep = (mailer: { send(m: Mail): Promise<void> }, now: Date) =>
    sweepUnreadChats({ db: t.database.db, mailer, publicUrl: 'http://localhost:3000', now });

  it('mails a recipient once per conversation after 15 minutes, not again until read, again after reading', async () => {
    const tr = await createAccount(t, 'trainer', { firstName: 'Mailed', lastName: 'Coach' });
    const sender = await createAccount(t, 'user', { firstName: 'Eager', lastName: 'Trainee' });
    await send({ message: 'one', recipientId: tr.id }, sender.token);
    await send({ message: 'two', recipientId: tr.id }, sender.token);
    const { mails, mailer } = capture();
    const toTrainer = () => mails.filter((m) => m.to === tr.email);

    await sweep(mailer, later(UNREAD_MAIL_AFTER_MS - 60_000));
    expect(toTrainer()).toEqual([]);

    await sweep(mailer, later(UNREAD_MAIL_AFTER_MS + 60_000));
    expect(toTrainer()).toHaveLength(1);
    expect(toTrainer()[0].subject).toBe('Eager Trainee sent you 2 messages on Spotter');
    expect(toTrainer()[0].text).toContain('http://localhost:3000/trainer/chat');
    expect(toTrainer()[0].text).not.toContain('one');

    // a sweep in another process, or the next minute, finds nothing new
    await sweep(mailer, later(UNREAD_MAIL_AFTER_MS + 120_000));
    await send({ message: 'three', recipientId: tr.id }, sender.token);
    await sweep(mailer, later(2 * UNREAD_MAIL_AFTER_MS + 120_000));
    expect(toTrainer()).toHaveLength(1);

    // reading clears it: the next unread message is mailed about again
    await markRead(sender.id, tr.token);
    await send({ message: 'four', recipientId: tr.id }, sender.token);
    await sweep(mailer, later(3 * UNREAD_MAIL_AFTER_MS));
    expect(toTrainer()).toHaveLength(2);
    expect(toTrainer()[1].subject).toBe('Eager Trainee sent you a message on Spotter');
  });

  it('mails nobody who read in time or turned account notifications off', async () => {
    const quiet = await createAccount(t, 'trainer');
    await t.database.db.update(accounts).set({ notifyAccount: false }).where(eq(accounts.id, quiet.id));
    const reader = await createAccount(t, 'user');
    const tr = await createAccount(t, 'trainer');
    await send({ message: 'to the quiet one', recipientId: quiet.id }, user.token);
    await send({ message: 'to the reader', recipientId: reader.id }, tr.token);
    await markRead(tr.id, reader.token);
    const { mails, mailer } = capture();
    await sweep(mailer, later(UNREAD_MAIL_AFTER_MS + 60_000));
    expect(mails.filter((m) => m.to === quiet.email || m.to === reader.email)).toEqual([]);
  });

  it('two sweeps at once mail a conversation once', async () => {
    const tr = await createAccount(t, 'trainer');
    await send({ message: 'race', recipientId: tr.id }, otherUser.token);
    const { mails, mailer } = capture();
    const now = later(UNREAD_MAIL_AFTER_MS + 60_000);
    await Promise.all([sweep(mailer, now), sweep(mailer, now), sweep(mailer, now)]);
    expect(mails.filter((m) => m.to === tr.email)).toHaveLength(1);
  });

  it('caps and escapes names in the mail', async () => {
    const tr = await createAccount(t, 'trainer');
    const odd = await createAccount(t, 'user');
    await t.database.db
      .update(accounts)
      .set({ firstName: '<b>Bold</b>', lastName: `"&'${'x'.repeat(200)}` })
      .where(eq(accounts.id, odd.id));
    await send({ message: 'hello', recipientId: tr.id }, odd.token);
    const { mails, mailer } = capture();
    await sweep(mailer, later(UNREAD_MAIL_AFTER_MS + 60_000));
    const [mail] = mails.filter((m) => m.to === tr.email);
    expect(mail.html).toContain('&lt;b&gt;Bold&lt;/b&gt; &quot;&amp;&#39;xxx');
    expect(mail.html).not.toContain('<b>Bold');
    expect(mail.subject.length).toBeLessThan(120);
  });
});
