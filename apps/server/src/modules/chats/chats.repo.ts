import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, messages } from '../../db/schema';
import { isId } from '@spotter/shared';

type Q = Db | Tx;
type Role = 'user' | 'trainer';

/** How long a message's push waits for an open socket to take it first (docs/product.md#notifications). */
const PUSH_GRACE_MS = 5_000;

/** Arbitrary, fixed: the namespace of the advisory locks below. */
const INBOX_LOCK_SEED = 724_006;
const SWEEP_LOCK = 724_007;

const senderIdSql = sql`case when ${messages.senderRole} = 'user' then ${messages.userId} else ${messages.trainerId} end`;

const messageColumns = {
  id: messages.id,
  seq: messages.seq,
  userId: messages.userId,
  trainerId: messages.trainerId,
  senderRole: messages.senderRole,
  body: messages.body,
  createdAt: messages.createdAt,
  readAt: messages.readAt,
  clientMessageId: messages.clientMessageId,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  picture: accounts.picture,
  deletedAt: accounts.deletedAt,
};

/** What a token is checked against, and the names a message shows. */
export async function findAccounts(db: Q, ids: string[]) {
  // what is no id (a token's claim, a body's field) names no account; the uuid column would throw
  ids = ids.filter(isId);
  if (!ids.length) return [];
  return db
    .select({
      id: accounts.id,
      role: accounts.role,
      email: accounts.email,
      firstName: accounts.firstName,
      lastName: accounts.lastName,
      picture: accounts.picture,
      tokenVersion: accounts.tokenVersion,
      notifyAccount: accounts.notifyAccount,
      emailVerifiedAt: accounts.emailVerifiedAt,
      deletedAt: accounts.deletedAt,
    })
    .from(accounts)
    .where(inArray(accounts.id, ids));
}

/**
 * Stores a message and announces it, in one statement (one round trip, its own transaction), only
 * when both people exist, are not deleted and have the roles the conversation needs, and the
 * sender's token version is still current (the route checked only the token's signature). The messages
 * into one trainer's inbox (all its conversations) are serialised by an advisory lock taken before
 * `seq` is drawn and held until commit, so their `seq` order is their commit order and a reader
 * asking for what came `after` a message misses none. The announcement is delivered after commit.
 * Answers the stored row with the sender's names, or nothing when a check failed (the caller then
 * asks `findAccounts` which one) or the sender's `clientMessageId` is stored already (a retried
 * send: `findByClientId` has it).
 *
 * When the recipient has a device that wants message notifications, the same statement queues the
 * push job (`pushJob`), due `PUSH_GRACE_MS` later: by then a process that pushed the message to an
 * open socket of the recipient has marked it delivered, and no notification goes out
 * (docs/product.md#notifications). The announcement says whether a job was queued (`p`), so only
 * those messages are marked delivered. The check is one index lookup (a burst is told apart by the
 * job, off this path); a second statement per message would cost the chat benchmark its throughput.
 */
export async function insertMessageAndNotify(
  db: Q,
  m: {
    id: string;
    userId: string;
    trainerId: string;
    senderRole: Role;
    tokenVersion: number;
    body: string;
    channel: string;
    clientMessageId?: string;
    pushJob: string;
  },
): Promise<{ id: string; createdAt: Date; firstName: string; lastName: string; picture: string } | undefined> {
  const [senderId, recipientId] = m.senderRole === 'user' ? [m.userId, m.trainerId] : [m.trainerId, m.userId];
  const recipientRole: Role = m.senderRole === 'user' ? 'trainer' : 'user';
  const result = await db.execute(sql`
    with s as (
      select first_name, last_name, picture from accounts
      where id = ${senderId}::uuid and role = ${m.senderRole} and token_version = ${m.tokenVersion} and deleted_at is null
    ), r as (
      select id from accounts where id = ${recipientId}::uuid and role = ${recipientRole} and deleted_at is null
    ), l as (
      select pg_advisory_xact_lock(hashtextextended(${m.trainerId}, ${INBOX_LOCK_SEED})) from s, r
    ), ins as (
      insert into messages (id, user_id, trainer_id, sender_role, body, created_at, client_message_id)
      select ${m.id}::uuid, ${m.userId}::uuid, ${m.trainerId}::uuid, ${m.senderRole}, ${m.body}, clock_timestamp(),
        ${m.clientMessageId ?? null}::uuid from l
      on conflict (user_id, trainer_id, sender_role, client_message_id) where client_message_id is not null do nothing
      returning id, created_at
    ), push as (
      insert into jobs (kind, run_at, payload)
      select ${m.pushJob}, ${new Date(Date.now() + PUSH_GRACE_MS).toISOString()}::timestamptz,
        json_build_object('messageId', ins.id)::jsonb from ins
      where exists (
        select 1 from push_subscriptions p where p.account_id = ${recipientId}::uuid and 'message' = any(p.kinds)
      )
      returning id
    )
    select ins.id::text as "id", ins.created_at as "createdAt", s.first_name as "firstName", s.last_name as "lastName",
      s.picture as "picture",
      pg_notify(${m.channel}, json_build_object('k', 'm', 'id', ins.id, 'u', ${m.userId}::text, 't', ${m.trainerId}::text,
        'p', exists (select 1 from push))::text)
    from ins, s`);
  const [row] = (
    result as unknown as {
      rows: Array<{ id: string; createdAt: Date | string; firstName: string; lastName: string; picture: string }>;
    }
  ).rows;
  return row && { ...row, createdAt: new Date(row.createdAt) };
}

/** A sender's message by the id its client picked (a retried send). */
export async function findByClientId(db: Q, m: { userId: string; trainerId: string; senderRole: Role; clientMessageId: string }) {
  const [row] = await db
    .select(messageColumns)
    .from(messages)
    .innerJoin(accounts, eq(accounts.id, senderIdSql))
    .where(
      and(
        eq(messages.userId, m.userId),
        eq(messages.trainerId, m.trainerId),
        eq(messages.senderRole, m.senderRole),
        eq(messages.clientMessageId, m.clientMessageId),
      ),
    )
    .limit(1);
  return row;
}

/**
 * A message's recipient was sent it on an open socket (docs/product.md#notifications): its push job
 * then sends nothing. Marks many at once (the chat hub batches them).
 */
export async function markDelivered(db: Q, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db
    .update(messages)
    .set({ deliveredAt: sql`now()` })
    .where(and(inArray(messages.id, ids), isNull(messages.deliveredAt)));
}

/** What a message's push needs: the recipient, the sender's first name, the text, and whether to send at all. */
export async function findForPush(db: Q, id: string) {
  const [row] = await db
    .select({
      seq: messages.seq,
      createdAt: messages.createdAt,
      userId: messages.userId,
      trainerId: messages.trainerId,
      senderRole: messages.senderRole,
      body: messages.body,
      readAt: messages.readAt,
      deliveredAt: messages.deliveredAt,
      hiddenAt: messages.hiddenAt,
      firstName: accounts.firstName,
      deletedAt: accounts.deletedAt,
    })
    .from(messages)
    .innerJoin(accounts, eq(accounts.id, senderIdSql))
    .where(eq(messages.id, id))
    .limit(1);
  return row;
}

/** The messages of one side (`senderRole`) of one conversation. */
const fromSenderIn = (m: { userId: string; trainerId: string; senderRole: Role }) =>
  and(eq(messages.trainerId, m.trainerId), eq(messages.userId, m.userId), eq(messages.senderRole, m.senderRole));

/**
 * Whether a message is part of a burst another job tells of: an earlier message of the sender's in
 * the conversation, from the minute before it, is still unread and undelivered (its job sends the newest text).
 */
export async function followsUnreadMessage(
  db: Q,
  m: { userId: string; trainerId: string; senderRole: Role; seq: number; createdAt: Date },
): Promise<boolean> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        fromSenderIn(m),
        lt(messages.seq, m.seq),
        gt(messages.createdAt, new Date(m.createdAt.getTime() - 60_000)),
        isNull(messages.readAt),
        isNull(messages.deliveredAt),
      ),
    )
    .limit(1);
  return !!row;
}

/** The text of the newest message of a burst: the sender's newest in the conversation, unread and not hidden. */
export async function newestUnreadBody(
  db: Q,
  m: { userId: string; trainerId: string; senderRole: Role },
): Promise<string | undefined> {
  const [row] = await db
    .select({ body: messages.body })
    .from(messages)
    .where(and(fromSenderIn(m), isNull(messages.readAt), isNull(messages.hiddenAt)))
    .orderBy(desc(messages.seq))
    .limit(1);
  return row?.body;
}

/** Messages to `accountId` that they have not read (the app icon's badge). */
export async function countUnreadFor(db: Q, accountId: string, role: Role): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .where(
      and(
        role === 'user' ? eq(messages.userId, accountId) : eq(messages.trainerId, accountId),
        ne(messages.senderRole, role),
        isNull(messages.readAt),
        isNull(messages.hiddenAt),
      ),
    );
  return Number(row?.n ?? 0);
}

export async function findMessageById(db: Q, id: string) {
  const [row] = await db
    .select(messageColumns)
    .from(messages)
    .innerJoin(accounts, eq(accounts.id, senderIdSql))
    .where(eq(messages.id, id))
    .limit(1);
  return row;
}
export type MessageRow = NonNullable<Awaited<ReturnType<typeof findMessageById>>>;

/** One conversation (both ids), or one account's whole inbox (its own id only). */
export type Scope = { trainerId: string; userId?: string } | { trainerId?: undefined; userId: string };
const inScope = ({ trainerId, userId }: Scope) =>
  and(trainerId ? eq(messages.trainerId, trainerId) : undefined, userId ? eq(messages.userId, userId) : undefined);

/**
 * A hidden message (docs/product.md#reports-and-moderation) is shown to its sender only: to the
 * reader of role `viewer`, the visible ones and their own.
 */
const visibleTo = (viewer: Role) => sql`(${messages.hiddenAt} is null or ${messages.senderRole} = ${viewer})`;

/** The `seq` of a message, only when it belongs to the scope. */
export async function findSeqInScope(db: Q, id: string, scope: Scope): Promise<number | undefined> {
  const [row] = await db
    .select({ seq: messages.seq })
    .from(messages)
    .where(and(eq(messages.id, id), inScope(scope)))
    .limit(1);
  return row?.seq;
}

/**
 * A page of a conversation (or of a whole inbox), oldest first: the newest `limit`, the `limit`
 * before `beforeSeq`, or the first `limit` after `afterSeq`. One more row is read to tell whether
 * there are more.
 */
export async function findMessages(db: Q, scope: Scope & { viewer: Role; beforeSeq?: number; afterSeq?: number; limit: number }) {
  const where: SQL[] = [inScope(scope)!, visibleTo(scope.viewer)];
  if (scope.beforeSeq !== undefined) where.push(lt(messages.seq, scope.beforeSeq));
  if (scope.afterSeq !== undefined) where.push(gt(messages.seq, scope.afterSeq));
  const rows = await db
    .select(messageColumns)
    .from(messages)
    .innerJoin(accounts, eq(accounts.id, senderIdSql))
    .where(and(...where))
    .orderBy(scope.afterSeq !== undefined ? asc(messages.seq) : desc(messages.seq))
    .limit(scope.limit + 1);
  const hasMore = rows.length > scope.limit;
  const page = rows.slice(0, scope.limit);
  if (scope.afterSeq === undefined) page.reverse();
  return { rows: page, hasMore };
}

const sides = (role: Role) =>
  role === 'trainer'
    ? { mine: messages.trainerId, theirs: messages.userId, theirRole: 'user' as const }
    : { mine: messages.userId, theirs: messages.trainerId, theirRole: 'trainer' as const };

/**
 * Each conversation of an account, newest first: its latest message, the counterpart as they are
 * now (null names when the account is gone) and how many of their messages this account has not
 * read. One statement (on PGlite every round trip waits for the one before); the latest messages
 * are read in the order of the conversation index, scanned backwards, with no sort.
 */
/** The most conversations one list (conversations, or a whole inbox's pages) answers. */
const CONVERSATIONS_MAX = 500;

function conversationsQuery(db: Db, role: Role) {
  const { mine, theirs, theirRole } = sides(role);
  const accountId = sql.placeholder('accountId');
  const last = db.$with('last').as(
    db
      .selectDistinctOn([theirs], {
        counterpartId: sql<string>`${theirs}`.as('counterpart_id'),
        body: messages.body,
        createdAt: messages.createdAt,
        seq: messages.seq,
      })
      .from(messages)
      .where(and(eq(mine, accountId), visibleTo(role)))
      .orderBy(desc(theirs), desc(messages.seq)),
  );
  const unread = db.$with('unread').as(
    db
      .select({ counterpartId: sql<string>`${theirs}`.as('unread_counterpart_id'), n: sql<number>`count(*)::int`.as('n') })
      .from(messages)
      .where(and(eq(mine, accountId), eq(messages.senderRole, theirRole), isNull(messages.readAt), isNull(messages.hiddenAt)))
      .groupBy(theirs),
  );
  return db
    .with(last, unread)
    .select({
      counterpartId: last.counterpartId,
      body: last.body,
      createdAt: last.createdAt,
      firstName: accounts.firstName,
      lastName: accounts.lastName,
      picture: accounts.picture,
      deletedAt: accounts.deletedAt,
      unread: sql<number>`coalesce(${unread.n}, 0)::int`,
    })
    .from(last)
    .leftJoin(accounts, eq(accounts.id, last.counterpartId))
    .leftJoin(unread, eq(unread.counterpartId, last.counterpartId))
    .orderBy(desc(last.seq))
    .limit(CONVERSATIONS_MAX)
    .prepare(`conversations_${role}`);
}
/** Prepared once per database and role: parsed and planned once, not on every read. */
const conversationQueries = new WeakMap<Db, Map<Role, ReturnType<typeof conversationsQuery>>>();

export async function findConversations(db: Db, role: Role, accountId: string) {
  let byRole = conversationQueries.get(db);
  if (!byRole) conversationQueries.set(db, (byRole = new Map()));
  let query = byRole.get(role);
  if (!query) byRole.set(role, (query = conversationsQuery(db, role)));
  return query.execute({ accountId });
}

/**
 * An account's whole inbox as an outside client reads it (GET /api/chats/{own id}, no `userId`):
 * the newest `pageSize` messages of each conversation, the most recent conversations first while
 * their pages add up to at most `maxMessages` (and `CONVERSATIONS_MAX` conversations), all oldest
 * first, in one statement (docs/decisions/035-hold-cooldown-and-whole-inbox.md). The conversations
 * are grouped from the conversation index; each page is a backward scan of that index with a
 * limit, so a long conversation costs its page, not its length. Names are read once per
 * conversation and once for the account, not per message. Each page reads one row more, to tell
 * whether older messages exist (`n` > pageSize); `conversations` is how many there are in all,
 * `listed` how many are answered.
 */
export async function findInboxPages(
  db: Q,
  { role, accountId, pageSize, maxMessages }: { role: Role; accountId: string; pageSize: number; maxMessages: number },
) {
  // fixed column names by role, never input
  const [mine, theirs] =
    role === 'trainer' ? [sql.raw('trainer_id'), sql.raw('user_id')] : [sql.raw('user_id'), sql.raw('trainer_id')];
  const theirRole = role === 'trainer' ? 'user' : 'trainer';
  const senders = (column: string) =>
    sql.raw(`case when p.sender_role = '${theirRole}' then them.${column} else me.${column} end`);
  const result = await db.execute(sql`
    with ranked as (
      select ${theirs} as counterpart_id, count(*) over () as conversations,
        sum(least(count(*), ${pageSize})) over (order by max(seq) desc rows unbounded preceding) as messages_upto
      from messages
      where ${mine} = ${accountId}::uuid and (hidden_at is null or sender_role = ${role})
      group by ${theirs}
      order by max(seq) desc
      limit ${CONVERSATIONS_MAX}
    ), conv as (
      select counterpart_id, conversations, count(*) over () as listed
      from ranked where messages_upto <= ${maxMessages}
    )
    select p.id::text as "id", p.user_id::text as "userId", p.trainer_id::text as "trainerId",
      p.sender_role as "senderRole", p.body as "body", p.created_at as "createdAt", p.read_at as "readAt",
      ${senders('first_name')} as "firstName", ${senders('last_name')} as "lastName",
      ${senders('picture')} as "picture", ${senders('deleted_at')} as "deletedAt",
      p.n::int as "n", conv.conversations::int as "conversations", conv.listed::int as "listed"
    from conv
    join accounts them on them.id = conv.counterpart_id
    join accounts me on me.id = ${accountId}::uuid
    cross join lateral (
      select m.id, m.seq, m.user_id, m.trainer_id, m.sender_role, m.body, m.created_at, m.read_at,
        row_number() over (order by m.seq desc) as n
      from messages m
      where m.${mine} = ${accountId}::uuid and m.${theirs} = conv.counterpart_id
        and (m.hidden_at is null or m.sender_role = ${role})
      order by m.seq desc
      limit ${pageSize + 1}
    ) p
    order by p.seq`);
  type Raw = Omit<MessageRow, 'seq' | 'createdAt' | 'readAt' | 'deletedAt'> & {
    createdAt: Date | string;
    readAt: Date | string | null;
    deletedAt: Date | string | null;
    n: number;
    conversations: number;
    listed: number;
  };
  const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));
  return (result as unknown as { rows: Raw[] }).rows.map((r) => ({
    ...r,
    createdAt: date(r.createdAt),
    readAt: r.readAt === null ? null : date(r.readAt),
    deletedAt: r.deletedAt === null ? null : date(r.deletedAt),
    n: Number(r.n),
    conversations: Number(r.conversations),
    listed: Number(r.listed),
  }));
}

/** Marks what the other side sent as read; answers how many messages that was. */
export async function markRead(
  tx: Tx,
  { userId, trainerId, readerRole }: { userId: string; trainerId: string; readerRole: Role },
) {
  const rows = await tx
    .update(messages)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(messages.trainerId, trainerId),
        eq(messages.userId, userId),
        ne(messages.senderRole, readerRole),
        isNull(messages.readAt),
      ),
    )
    .returning({ readAt: messages.readAt });
  return { count: rows.length, readAt: rows[0]?.readAt };
}

type UnreadGroup = { userId: string; trainerId: string; senderRole: Role; count: number };

/**
 * Claims every message unread since `cutoff` (sets `mailed_at`; a hidden one is never mailed about,
 * docs/product.md#reports-and-moderation) and answers, per conversation and
 * direction, how many were claimed — only for those with no earlier claimed message still unread,
 * so a conversation is mailed about once until it is read. Sweeps of all processes take turns on
 * one advisory lock, so two never claim the same message or mail one conversation twice.
 */
export async function claimUnreadForMail(
  db: Db,
  { now, cutoff, max }: { now: Date; cutoff: Date; max: number },
): Promise<UnreadGroup[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SWEEP_LOCK})`);
    // the outer select sees the table as it was before the update: "earlier" claims only
    const result = await tx.execute(sql`
      with due as (
        update messages set mailed_at = ${now.toISOString()}::timestamptz
        where mailed_at is null and read_at is null and id in (
          select id from messages
          where read_at is null and mailed_at is null and hidden_at is null and created_at <= ${cutoff.toISOString()}::timestamptz
          order by created_at
          limit ${max}
        )
        returning user_id, trainer_id, sender_role
      )
      select d.user_id::text as "userId", d.trainer_id::text as "trainerId", d.sender_role as "senderRole", count(*)::int as "count"
      from due d
      where not exists (
        select 1 from messages p
        where p.trainer_id = d.trainer_id and p.user_id = d.user_id and p.sender_role = d.sender_role
          and p.read_at is null and p.mailed_at is not null
      )
      group by d.user_id, d.trainer_id, d.sender_role`);
    return (result as unknown as { rows: UnreadGroup[] }).rows.map((r) => ({ ...r, count: Number(r.count) }));
  });
}
