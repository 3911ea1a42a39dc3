import { z } from 'zod';
import type { Db } from '../../db/client';
import { defineJob, type JobRunner } from '../../platform/jobs';
import type { PushNotify } from '../push';
import * as repo from './chats.repo';

/**
 * A new message's Web Push (docs/product.md#notifications), queued by the statement that stores it
 * when the recipient has a device that wants messages, due a few seconds later (chats.repo.ts `PUSH_GRACE_MS`).
 */
export const CHAT_PUSH_JOB = defineJob('chat.push', z.object({ messageId: z.string().uuid() }), { priority: 'low' });

/** Where a person's inbox is in the web app (apps/web/src/lib/paths.ts `inbox`). */
const INBOX = { user: '/user/chatOfUser', trainer: '/trainer/chat' } as const;

/**
 * Notifies the recipient of a message nobody has pushed to an open socket of theirs, that they have
 * not read, and that is not hidden; with the text (the payload is encrypted for their device) and
 * their unread count for the app icon.
 */
export function registerChatPush(jobs: JobRunner, db: Db, notify: PushNotify) {
  jobs.register(CHAT_PUSH_JOB, async ({ messageId }) => {
    const m = await repo.findForPush(db, messageId);
    if (!m || m.readAt || m.deliveredAt || m.hiddenAt || m.deletedAt) return;
    // a burst is one notification: the job of its first message tells of the newest
    if (await repo.followsUnreadMessage(db, m)) return;
    const to = m.senderRole === 'user' ? ('trainer' as const) : ('user' as const);
    const recipientId = to === 'user' ? m.userId : m.trainerId;
    const senderId = to === 'user' ? m.trainerId : m.userId;
    await notify(db, recipientId, {
      kind: 'message',
      title: `${m.firstName.trim() || 'Someone'} sent you a message`,
      // the newest message of the burst
      body: (await repo.newestUnreadBody(db, m)) ?? m.body,
      url: INBOX[to],
      tag: `chat-${senderId}`,
      badge: await repo.countUnreadFor(db, recipientId, to),
    });
  });
}
