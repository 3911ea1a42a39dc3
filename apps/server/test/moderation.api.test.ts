// Reports and moderation (docs/product.md#reports-and-moderation): signed-in people report a review, a
// message or a trainer's profile once each; three reports from different people hide the item until an
// operator looks; operators hide, restore or dismiss, closing every open report of the item, each
// decision written to the audit log in its transaction, and every reporter told the outcome by mail.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REPORT_MSG, type TConsoleReport, type TReview } from '@spotter/shared';
import { accounts, auditLog, messages, reports } from '../src/db/schema';
import { listReports } from '../src/modules/moderation';
import { createAccount, insertTrainer, useTestApp } from './helper';
import { signedInOperator } from './support/console';

const t = await useTestApp();
const db = t.database.db;
const auth = (token?: string) => (token ? { authorization: token } : {});
const post = (url: string, payload: object, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: auth(token) });
const get = (url: string, token?: string) => t.app.inject({ url, headers: auth(token) });

const report = (token: string | undefined, kind: string, id: string, reason = 'spam', note = '') =>
  post('/api/reports', { kind, id, reason, note }, token);
const decide = (reportId: string, decision: 'hide' | 'restore' | 'dismiss', token: string, reason = 'looked at it') =>
  post(`/api/console/reports/${reportId}/${decision}`, { reason }, token);
const queue = async (token: string, query = '?status=open') => {
  const res = await get(`/api/console/reports${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().reports as TConsoleReport[];
};
const reviewsOf = async (trainerId: string, token?: string) => {
  const res = await get(`/api/trainer/reviews/${trainerId}`, token);
  expect(res.statusCode).toBe(200);
  return res.json().allReviews as TReview[];
};
const ratingOf = async (trainerId: string) => {
  const res = await get(`/api/trainerData/${trainerId}`);
  expect(res.statusCode, res.body).toBe(200);
  const { rating, ratingCount } = res.json().trainerData as { rating: number; ratingCount: number };
  return { rating, ratingCount };
};
const postReview = async (token: string, trainerId: string, rating: number, comment = 'A review') => {
  const res = await post('/api/reviews/new', { trainerId, rating, comment }, token);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().review._id as string;
};
const auditOf = (targetId: string) => db.select().from(auditLog).where(eq(auditLog.targetId, targetId));
const mailsTo = (email: string) => t.outbox().filter((m) => m.to === email);

const author = await createAccount(t, 'user', { firstName: 'Amal', lastName: 'Author' });
const reporter1 = await createAccount(t, 'user', { firstName: 'Rana', lastName: 'One' });
const reporter2 = await createAccount(t, 'user', { firstName: 'Sami', lastName: 'Two' });
const reporter3 = await createAccount(t, 'user', { firstName: 'Tarek', lastName: 'Three' });
const trainer = await createAccount(t, 'trainer', { firstName: 'Omar', lastName: 'Coach' });
const operator = await signedInOperator(t);

describe('POST /api/reports', () => {
  it('stores a report of a review, once per person: the second answers 409 ALREADY_REPORTED', async () => {
    const tr = await insertTrainer(t);
    const reviewId = await postReview(author.token, tr.id, 2, 'Rude and late');
    const res = await report(reporter1.token, 'review', reviewId, 'harassment', '  Insulting  ');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(REPORT_MSG.received);
    const [row] = await db.select().from(reports).where(eq(reports.id, res.json().report._id));
    expect(row).toMatchObject({
      reporterId: reporter1.id,
      kind: 'review',
      itemId: reviewId,
      subjectId: author.id,
      reason: 'harassment',
      note: 'Insulting',
      status: 'open',
      decidedAt: null,
    });
    const again = await report(reporter1.token, 'review', reviewId, 'spam');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'ALREADY_REPORTED', message: REPORT_MSG.already });
    expect(await db.select().from(reports).where(eq(reports.itemId, reviewId))).toHaveLength(1);
  });

  it('trainers report too; a profile is a trainer’s account', async () => {
    const tr = await insertTrainer(t);
    const reviewId = await postReview(author.token, tr.id, 5);
    expect((await report(trainer.token, 'review', reviewId)).statusCode).toBe(201);
    expect((await report(reporter1.token, 'profile', trainer.id, 'false-information')).statusCode).toBe(201);
    // a user's account is no profile to report
    expect((await report(trainer.token, 'profile', author.id)).statusCode).toBe(404);
  });

  it('refuses one’s own content with 400', async () => {
    const tr = await insertTrainer(t);
    const reviewId = await postReview(author.token, tr.id, 4);
    const own = await report(author.token, 'review', reviewId);
    expect(own.statusCode).toBe(400);
    expect(own.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: REPORT_MSG.own });
    expect((await report(trainer.token, 'profile', trainer.id)).json().message).toBe(REPORT_MSG.own);
    const sent = await post('/api/chats', { recipientId: trainer.id, message: 'My own words' }, author.token);
    expect((await report(author.token, 'message', sent.json().message._id)).statusCode).toBe(400);
    expect(await db.select().from(reports).where(eq(reports.reporterId, author.id))).toEqual([]);
  });

  it('answers 404 for what does not exist or the reporter cannot see, never a database error', async () => {
    for (const [kind, id] of [
      ['review', randomUUID()],
      ['message', randomUUID()],
      ['profile', randomUUID()],
      ['review', 'not-an-id'],
      ['profile', "x'; drop table reports; --"],
    ]) {
      const res = await report(reporter1.token, kind, id);
      expect(res.statusCode, `${kind} ${id}`).toBe(404);
      expect(res.json().message).toBe(REPORT_MSG.itemNotFound);
    }
    // a message of someone else's conversation
    const sent = await post('/api/chats', { recipientId: trainer.id, message: 'Between us' }, author.token);
    expect((await report(reporter1.token, 'message', sent.json().message._id)).statusCode).toBe(404);
  });

  it('needs a sign-in and a valid body', async () => {
    const tr = await insertTrainer(t);
    expect((await report(undefined, 'profile', tr.id)).statusCode).toBe(401);
    expect((await report(reporter1.token, 'comment', tr.id)).statusCode).toBe(400);
    expect((await report(reporter1.token, 'profile', tr.id, 'boring')).statusCode).toBe(400);
    expect((await report(reporter1.token, 'profile', tr.id, 'spam', 'x'.repeat(1001))).statusCode).toBe(400);
    expect(await db.select().from(reports).where(eq(reports.itemId, tr.id))).toEqual([]);
  });
});

describe('a hidden review', () => {
  it('is shown to its author only, marked, and the rating is recomputed without it; the report is decided once', async () => {
    const tr = await insertTrainer(t);
    const bad = await postReview(author.token, tr.id, 1, 'Terrible, avoid');
    await postReview(reporter2.token, tr.id, 5, 'Great');
    expect(await ratingOf(tr.id)).toEqual({ rating: 3, ratingCount: 2 });
    const reported = await report(reporter1.token, 'review', bad, 'false-information', 'Never trained there');
    const reportId = reported.json().report._id as string;

    const hidden = await decide(reportId, 'hide', operator.token, 'a fake review');
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json().message).toBe(REPORT_MSG.hidden);
    expect(hidden.json().report).toMatchObject({
      _id: reportId,
      status: 'hidden',
      itemHidden: true,
      decisionReason: 'a fake review',
      subjectId: author.id,
      subjectName: 'Amal Author',
      reporterName: 'Rana One',
      itemText: 'Terrible, avoid',
      itemRating: 1,
    });
    // everyone but its author: gone, and out of the rating and the distribution
    expect((await reviewsOf(tr.id)).map((r) => r.comment)).toEqual(['Great']);
    expect((await reviewsOf(tr.id, reporter1.token)).map((r) => r.comment)).toEqual(['Great']);
    const mine = await reviewsOf(tr.id, author.token);
    expect(mine.find((r) => r._id === bad)).toMatchObject({ hidden: true, isMine: true });
    expect(await ratingOf(tr.id)).toEqual({ rating: 5, ratingCount: 1 });
    const [stored] = await db.select().from(accounts).where(eq(accounts.id, tr.id));
    expect([Number(stored.ratingAvg), stored.ratingCount]).toEqual([5, 1]);
    expect((await get(`/api/trainer/reviews/${tr.id}/distribution`)).json().distribution).toMatchObject({ '1': 0, '5': 1 });

    // the audit log, the reporter's mail
    const entries = await auditOf(bad);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operatorId: operator.id,
      action: 'report.hide',
      targetKind: 'review',
      reason: 'a fake review',
      before: { hidden: false },
      after: { hidden: true },
    });
    const mail = mailsTo(reporter1.email).filter((m) => m.subject.includes('review you reported'));
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain('We hid it');
    expect(mail[0].text).not.toContain('a fake review');

    // decided once: a second decision of the same report is refused and changes nothing
    const again = await decide(reportId, 'restore', operator.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(REPORT_MSG.closed);
    expect(await auditOf(bad)).toHaveLength(1);

    // a new report of the hidden review cannot be made (only its author sees it)
    expect((await report(reporter3.token, 'review', bad)).statusCode).toBe(404);
  });

  it('restore shows a review three reports hid, and puts it back in the rating; the author’s edit of a hidden review stays hidden', async () => {
    const tr = await insertTrainer(t);
    const reviewId = await postReview(author.token, tr.id, 2, 'Meh');
    const ids: string[] = [];
    for (const r of [reporter1, reporter2, reporter3]) ids.push((await report(r.token, 'review', reviewId)).json().report._id);
    expect(await ratingOf(tr.id)).toEqual({ rating: 0, ratingCount: 0 });
    await postReview(author.token, tr.id, 3, 'Meh, edited');
    expect(await reviewsOf(tr.id)).toEqual([]);
    expect((await reviewsOf(tr.id, author.token)).map((r) => [r.comment, r.hidden])).toEqual([['Meh, edited', true]]);
    const restored = await decide(ids[2], 'restore', operator.token, 'the review is fair');
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ message: REPORT_MSG.restored, report: { status: 'restored', itemHidden: false } });
    expect((await reviewsOf(tr.id)).map((r) => r.comment)).toEqual(['Meh, edited']);
    expect((await reviewsOf(tr.id, author.token))[0].hidden).toBeUndefined();
    expect(await ratingOf(tr.id)).toEqual({ rating: 3, ratingCount: 1 });
    for (const row of await db.select().from(reports).where(eq(reports.itemId, reviewId))) expect(row.status).toBe('restored');
    const [entry] = (await auditOf(reviewId)).filter((e) => e.action === 'report.restore');
    expect(entry).toMatchObject({ before: { hidden: true }, after: { hidden: false }, operatorId: operator.id });
    for (const r of [reporter1, reporter2, reporter3])
      expect(
        mailsTo(r.email).some((m) => m.text.includes('stays visible')),
        r.email,
      ).toBe(true);
    // a fourth report after an operator looked does not hide it again
    expect((await report(trainer.token, 'review', reviewId)).statusCode).toBe(201);
    expect((await reviewsOf(tr.id)).map((r) => r.comment)).toEqual(['Meh, edited']);
  });
});

describe('three reports', () => {
  it('hide the item until an operator looks; the reports stay open; dismiss shows it again and closes them all', async () => {
    const tr = await insertTrainer(t);
    const reviewId = await postReview(author.token, tr.id, 1, 'Scam');
    await postReview(reporter3.token, tr.id, 4, 'Fine');
    const ids: string[] = [];
    for (const r of [reporter1, reporter2]) ids.push((await report(r.token, 'review', reviewId)).json().report._id);
    // two are not enough
    expect((await reviewsOf(tr.id)).map((r) => r.comment)).toContain('Scam');
    ids.push((await report(trainer.token, 'review', reviewId, 'spam')).json().report._id);
    expect((await reviewsOf(tr.id)).map((r) => r.comment)).toEqual(['Fine']);
    expect(await ratingOf(tr.id)).toEqual({ rating: 4, ratingCount: 1 });
    const [auto] = await auditOf(reviewId);
    expect(auto).toMatchObject({
      operatorId: null,
      action: 'report.auto-hide',
      targetKind: 'review',
      before: { hidden: false },
      after: { hidden: true },
    });
    // the queue shows all three, open, the item hidden
    const open = (await queue(operator.token)).filter((r) => r.itemId === reviewId);
    expect(open.map((r) => r._id)).toEqual(ids);
    for (const r of open) expect(r).toMatchObject({ status: 'open', itemHidden: true, itemReports: 3 });

    const dismissed = await decide(ids[1], 'dismiss', operator.token, 'an honest review');
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json()).toMatchObject({ message: REPORT_MSG.dismissed, report: { status: 'dismissed', itemHidden: false } });
    expect((await reviewsOf(tr.id)).map((r) => r.comment).sort()).toEqual(['Fine', 'Scam']);
    expect(await ratingOf(tr.id)).toEqual({ rating: 2.5, ratingCount: 2 });
    const rows = await db.select().from(reports).where(eq(reports.itemId, reviewId));
    for (const r of rows)
      expect(r).toMatchObject({ status: 'dismissed', decidedBy: operator.id, decisionReason: 'an honest review' });
    expect((await queue(operator.token)).filter((r) => r.itemId === reviewId)).toEqual([]);
    expect((await queue(operator.token, '?status=dismissed')).filter((r) => r.itemId === reviewId)).toHaveLength(3);
    const dismissEntry = (await auditOf(reviewId)).find((e) => e.action === 'report.dismiss');
    expect(dismissEntry).toMatchObject({ before: { hidden: true }, after: { hidden: false }, operatorId: operator.id });
    // each reporter is told
    for (const r of [reporter1, reporter2, trainer])
      expect(
        mailsTo(r.email).some((m) => m.text.includes('leave it as it is')),
        r.email,
      ).toBe(true);
  });

  it('two decisions of one item at once: one decides, the other answers 409; an edit of the review at the same time is kept', async () => {
    const tr = await insertTrainer(t);
    const reviewId = await postReview(author.token, tr.id, 1, 'Awful');
    const ids: string[] = [];
    for (const r of [reporter1, reporter2, reporter3]) ids.push((await report(r.token, 'review', reviewId)).json().report._id);
    const [a, b, edit] = await Promise.all([
      decide(ids[0], 'restore', operator.token),
      decide(ids[1], 'hide', operator.token),
      post('/api/reviews/new', { trainerId: tr.id, rating: 2, comment: 'Awful, edited' }, author.token),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(edit.statusCode).toBe(201);
    const winner = a.statusCode === 200 ? 'restored' : 'hidden';
    for (const row of await db.select().from(reports).where(eq(reports.itemId, reviewId))) expect(row.status).toBe(winner);
    expect(await ratingOf(tr.id)).toEqual(winner === 'restored' ? { rating: 2, ratingCount: 1 } : { rating: 0, ratingCount: 0 });
    expect((await auditOf(reviewId)).map((e) => e.action).sort()).toEqual(
      ['report.auto-hide', winner === 'restored' ? 'report.restore' : 'report.hide'].sort(),
    );
  });

  it('count only reports no operator decided: after a restore, three new people’s reports hide the item again', async () => {
    const tr = await insertTrainer(t);
    const reviewId = await postReview(author.token, tr.id, 1, 'Hidden twice');
    const ids: string[] = [];
    for (const r of [reporter1, reporter2, reporter3]) ids.push((await report(r.token, 'review', reviewId)).json().report._id);
    expect(await reviewsOf(tr.id)).toEqual([]);
    expect((await decide(ids[0], 'restore', operator.token, 'fair enough')).statusCode).toBe(200);
    expect((await reviewsOf(tr.id)).map((r) => r.comment)).toEqual(['Hidden twice']);

    // the restore closed the three; two new ones are not enough, the third new person's hides it again
    const others = [
      trainer,
      await createAccount(t, 'user', { firstName: 'Uma', lastName: 'Four' }),
      await createAccount(t, 'user', { firstName: 'Vera', lastName: 'Five' }),
    ];
    const later: string[] = [];
    for (const r of others.slice(0, 2)) later.push((await report(r.token, 'review', reviewId)).json().report._id);
    expect((await reviewsOf(tr.id)).map((r) => r.comment)).toEqual(['Hidden twice']);
    const third = await report(others[2].token, 'review', reviewId);
    expect(third.statusCode, third.body).toBe(201);
    later.push(third.json().report._id);
    expect(await reviewsOf(tr.id)).toEqual([]);
    expect(await ratingOf(tr.id)).toEqual({ rating: 0, ratingCount: 0 });
    expect((await auditOf(reviewId)).map((e) => e.action).sort()).toEqual([
      'report.auto-hide',
      'report.auto-hide',
      'report.restore',
    ]);
    const open = (await queue(operator.token)).filter((r) => r.itemId === reviewId);
    expect(open.map((r) => r._id)).toEqual(later);
    for (const r of open) expect(r).toMatchObject({ status: 'open', itemHidden: true });
    // the first three stay as the operator decided them
    const rows = await db.select().from(reports).where(eq(reports.itemId, reviewId));
    expect(rows.filter((r) => ids.includes(r.id)).map((r) => r.status)).toEqual(['restored', 'restored', 'restored']);
  });

  it('count only reports no operator decided: after one report is dismissed, two new ones do not hide the item', async () => {
    const tr = await insertTrainer(t);
    const reviewId = await postReview(author.token, tr.id, 2, 'Dismissed once');
    const first = (await report(reporter1.token, 'review', reviewId)).json().report._id as string;
    expect((await decide(first, 'dismiss', operator.token, 'nothing wrong')).statusCode).toBe(200);
    for (const r of [reporter2, reporter3]) expect((await report(r.token, 'review', reviewId)).statusCode).toBe(201);
    expect((await reviewsOf(tr.id)).map((r) => r.comment)).toEqual(['Dismissed once']);
    expect(await ratingOf(tr.id)).toEqual({ rating: 2, ratingCount: 1 });
    expect((await auditOf(reviewId)).map((e) => e.action)).toEqual(['report.dismiss']);
    // a third open one does
    expect((await report(trainer.token, 'review', reviewId)).statusCode).toBe(201);
    expect(await reviewsOf(tr.id)).toEqual([]);
  });

  it('dismissing a report of a visible item leaves it visible', async () => {
    const tr = await insertTrainer(t);
    const reviewId = await postReview(author.token, tr.id, 3, 'Average');
    const id = (await report(reporter1.token, 'review', reviewId)).json().report._id as string;
    const res = await decide(id, 'dismiss', operator.token);
    expect(res.json().report).toMatchObject({ status: 'dismissed', itemHidden: false });
    expect((await auditOf(reviewId))[0]).toMatchObject({ before: { hidden: false }, after: { hidden: false } });
  });
});

describe('a hidden message', () => {
  it('leaves the recipient’s conversation, inbox and unread count; its sender still sees it', async () => {
    const sender = await createAccount(t, 'user', { firstName: 'Nour', lastName: 'Sender' });
    const fine = await post('/api/chats', { recipientId: trainer.id, message: 'Hello coach' }, sender.token);
    const rude = await post('/api/chats', { recipientId: trainer.id, message: 'Buy my stuff at spam.example' }, sender.token);
    const rudeId = rude.json().message._id as string;
    const reported = await report(trainer.token, 'message', rudeId, 'spam');
    expect(reported.statusCode, reported.body).toBe(201);
    const [row] = await db.select().from(reports).where(eq(reports.id, reported.json().report._id));
    expect(row.subjectId).toBe(sender.id);
    expect((await decide(row.id, 'hide', operator.token, 'advertising')).statusCode).toBe(200);

    const trainerSide = await get(`/api/chats/${trainer.id}?userId=${sender.id}`, trainer.token);
    expect(trainerSide.json().allMessages.map((m: { message: string }) => m.message)).toEqual(['Hello coach']);
    const inbox = await get(`/api/chats/${trainer.id}`, trainer.token);
    expect(inbox.json().allMessages.map((m: { _id: string }) => m._id)).not.toContain(rudeId);
    const convs = (await get('/api/conversations', trainer.token)).json().conversations as Array<Record<string, unknown>>;
    expect(convs.find((c) => c.counterpartId === sender.id)).toMatchObject({ lastMessage: 'Hello coach', unread: 1 });

    const senderSide = await get(`/api/chats/${trainer.id}`, sender.token);
    expect(senderSide.json().allMessages.map((m: { message: string }) => m.message)).toEqual([
      'Hello coach',
      'Buy my stuff at spam.example',
    ]);
    const own = (await get('/api/conversations', sender.token)).json().conversations as Array<Record<string, unknown>>;
    expect(own.find((c) => c.counterpartId === trainer.id)).toMatchObject({ lastMessage: 'Buy my stuff at spam.example' });
    const [stored] = await db.select().from(messages).where(eq(messages.id, rudeId));
    expect(stored.hiddenAt).not.toBeNull();
    expect(fine.statusCode).toBe(201);
  });
});

describe('a hidden profile', () => {
  it('leaves the list and its page answers 404, and cannot be reported again', async () => {
    const tr = await insertTrainer(t, { firstName: 'Hidden', lastName: 'Profile' });
    expect((await get(`/api/trainerData/${tr.id}`)).statusCode).toBe(200);
    const id = (await report(reporter1.token, 'profile', tr.id, 'false-information', 'Fake certificates')).json().report
      ._id as string;
    const hidden = await decide(id, 'hide', operator.token, 'fake certificates');
    expect(hidden.json().report).toMatchObject({ kind: 'profile', itemHidden: true, itemText: 'Strength coach\nBarbell basics' });
    expect((await get(`/api/trainerData/${tr.id}`)).statusCode).toBe(404);
    const list = (await get('/api/trainers?q=Hidden')).json();
    expect(JSON.stringify(list)).not.toContain(tr.id);
    const [row] = await db.select().from(accounts).where(eq(accounts.id, tr.id));
    expect(row.profileHiddenAt).not.toBeNull();
    // reported again: no one can see it to report it
    expect((await report(reporter2.token, 'profile', tr.id)).statusCode).toBe(404);
  });

  it('three reports hide a profile, the trainer still reads their own account; restore shows it again', async () => {
    const tr = await createAccount(t, 'trainer', { firstName: 'Reported', lastName: 'Trainer' });
    const ids: string[] = [];
    for (const r of [reporter1, reporter2, reporter3]) ids.push((await report(r.token, 'profile', tr.id)).json().report._id);
    expect((await get(`/api/trainerData/${tr.id}`)).statusCode).toBe(404);
    const own = await get('/api/trainerData', tr.token);
    expect(own.statusCode).toBe(200);
    expect(own.json().trainerData).toMatchObject({ _id: tr.id, profileHidden: true });
    expect((await auditOf(tr.id)).map((e) => e.action)).toEqual(['report.auto-hide']);
    expect((await decide(ids[0], 'restore', operator.token, 'certificates checked')).statusCode).toBe(200);
    expect((await get(`/api/trainerData/${tr.id}`)).statusCode).toBe(200);
    expect((await get('/api/trainerData', tr.token)).json().trainerData.profileHidden).toBe(false);
  });
});

describe('the queue', () => {
  it('is the operators’: 401 without a token, 403 for members, and lists oldest first by status or subject', async () => {
    expect((await get('/api/console/reports?status=open')).statusCode).toBe(401);
    expect((await get('/api/console/reports?status=open', author.token)).statusCode).toBe(403);
    expect((await get('/api/console/reports?status=open', trainer.token)).statusCode).toBe(403);
    expect((await get('/api/console/reports?status=closed', operator.token)).statusCode).toBe(400);
    const tr = await insertTrainer(t);
    const reviewId = await postReview(author.token, tr.id, 2);
    const id = (await report(reporter1.token, 'review', reviewId)).json().report._id as string;
    for (const decision of ['hide', 'restore', 'dismiss'] as const) {
      expect((await post(`/api/console/reports/${id}/${decision}`, { reason: 'members may not' })).statusCode).toBe(401);
      expect((await decide(id, decision, author.token)).statusCode).toBe(403);
      expect((await decide(id, decision, trainer.token)).statusCode).toBe(403);
    }
    // a reason is required; an unknown or malformed report is 404
    expect((await decide(id, 'hide', operator.token, '')).statusCode).toBe(400);
    expect((await decide(randomUUID(), 'hide', operator.token)).statusCode).toBe(404);
    expect((await decide('not-an-id', 'hide', operator.token)).statusCode).toBe(404);
    const [row] = await db.select().from(reports).where(eq(reports.id, id));
    expect(row.status).toBe('open');

    const open = await queue(operator.token);
    const times = open.map((r) => r.createdAt);
    expect([...times].sort()).toEqual(times);
    expect(open.every((r) => r.status === 'open')).toBe(true);
    const res = await get('/api/console/reports?status=open', operator.token);
    expect(res.headers['cache-control']).toBe('private, no-store');

    // the person page's list: reports about one person's content
    const about = await listReports(db, { subjectId: author.id });
    expect(about.length).toBeGreaterThan(0);
    expect(about.every((r) => r.subjectId === author.id)).toBe(true);
    expect(about.map((r) => r._id)).toContain(id);
    expect((await queue(operator.token, `?subjectId=${author.id}&status=open`)).map((r) => r._id)).toContain(id);
    expect(await listReports(db, { subjectId: 'nobody' })).toEqual([]);
    const [auditRows] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, reviewId), eq(auditLog.action, 'report.hide')));
    expect(auditRows).toBeUndefined();
  });
});
