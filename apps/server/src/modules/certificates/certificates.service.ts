import type { FastifyBaseLogger } from 'fastify';
import {
  CERTIFICATE_MSG,
  CERTIFICATE_RULES,
  ZCertificateFields,
  type CertificateStatus,
  type TCertificate,
  type TConsoleCertificate,
} from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { JobRunner } from '../../platform/jobs';
import { writeAudit } from '../console';
import type { ImagesService } from '../images';
import type { Mailer } from '../mail';
import { isPdf, pdfIsPassive, type CertificateFiles } from './certificate-file';
import { CERTIFICATE_JOBS, RUN_NOW_CLAIM_MS } from './certificate-jobs';
import { certificateApprovedMail, certificateExpiringMail, certificateRejectedMail } from './certificate-mails';
import * as repo from './certificates.repo';

const DAY_MS = 24 * 60 * 60_000;
/** An image certificate is re-encoded to WebP at most this many pixels on its longer edge: enough to read it. */
const IMAGE_MAX_EDGE = 2400;

type CertificatesDeps = {
  db: Db;
  jobs: JobRunner;
  mailer: Mailer;
  images: Pick<ImagesService, 'reencode'>;
  files: CertificateFiles;
  publicUrl: string;
  now: () => Date;
  log: FastifyBaseLogger;
};

/** The UTC date of `at`, YYYY-MM-DD: a certificate counts through its last day (docs/product.md#verified-coaches). */
const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const startOf = (day: string) => new Date(`${day}T00:00:00Z`);

const isCurrent = (row: repo.CertificateRow, today: string) => row.status === 'approved' && row.expiresOn >= today;

const toCertificate = (row: repo.CertificateRow, today: string): TCertificate => ({
  _id: row.id,
  issuer: row.issuer,
  expiresOn: row.expiresOn,
  status: row.status,
  current: isCurrent(row, today),
  mime: row.mime,
  bytes: row.bytes,
  createdAt: row.createdAt.toISOString(),
  decidedAt: row.decidedAt?.toISOString() ?? null,
  decisionReason: row.decisionReason,
});

const toConsole = (
  row: { certificate: repo.CertificateRow; trainerName: string; trainerEmail: string },
  today: string,
): TConsoleCertificate => ({
  ...toCertificate(row.certificate, today),
  trainerId: row.certificate.trainerId,
  trainerName: row.trainerName,
  trainerEmail: row.trainerEmail,
});

/** The checked bytes to keep and their type: a passive PDF as sent, an image re-encoded (no metadata). */
async function checkedFile(deps: CertificatesDeps, input: Buffer): Promise<{ data: Buffer; mime: string }> {
  if (input.length === 0) throw new AppError('BAD_REQUEST', CERTIFICATE_MSG.fileRequired);
  if (isPdf(input)) {
    if (!pdfIsPassive(input)) throw new AppError('INVALID_IMAGE', CERTIFICATE_MSG.fileUnreadable);
    return { data: input, mime: 'application/pdf' };
  }
  try {
    const { data } = await deps.images.reencode(input, { maxEdge: IMAGE_MAX_EDGE });
    return { data, mime: 'image/webp' };
  } catch (err) {
    if (!(err instanceof AppError) || err.code === 'RATE_LIMITED') throw err;
    if (err.code === 'UNSUPPORTED_MEDIA_TYPE') throw new AppError('UNSUPPORTED_MEDIA_TYPE', CERTIFICATE_MSG.fileType);
    throw new AppError('INVALID_IMAGE', CERTIFICATE_MSG.fileUnreadable);
  }
}

export function createCertificatesService(deps: CertificatesDeps) {
  const { db, jobs, files } = deps;
  const link = `${deps.publicUrl.replace(/\/$/, '')}/trainer/settings`;

  /** Mails the trainer of a certificate; false when there is nobody to mail (a deleted account). */
  async function mailTrainer(
    q: Db | Tx,
    row: repo.CertificateRow,
    build: (who: { to: string; firstName: string; link: string }) => import('../mail').Mail,
  ) {
    const who = await repo.trainerContact(q, row.trainerId);
    if (!who) return;
    await deps.mailer.send(build({ to: who.email, firstName: who.firstName, link }));
  }

  return {
    /**
     * A trainer's upload (docs/product.md#verified-coaches): the fields checked, the date not past,
     * at most `pendingMax` waiting, the file checked by its content (a passive PDF, or an image
     * re-encoded), kept under a random name, and the row written.
     */
    async upload(trainerId: string, fields: Record<string, string>, file: Buffer | undefined) {
      const parsed = ZCertificateFields.safeParse(fields);
      if (!parsed.success) {
        const errors: Record<string, string> = {};
        for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'body')] ??= issue.message;
        throw new AppError('VALIDATION_FAILED', parsed.error.issues[0].message, errors);
      }
      const { issuer, expiresOn } = parsed.data;
      const at = deps.now();
      if (expiresOn < dayOf(at))
        throw new AppError('VALIDATION_FAILED', CERTIFICATE_MSG.expired, { expiresOn: CERTIFICATE_MSG.expired });
      if (!file) throw new AppError('BAD_REQUEST', CERTIFICATE_MSG.fileRequired);
      if ((await repo.countPending(db, trainerId)) >= CERTIFICATE_RULES.pendingMax)
        throw new AppError('CONFLICT', CERTIFICATE_MSG.tooManyPending);
      const { data, mime } = await checkedFile(deps, file);
      const fileKey = await files.write(data);
      try {
        const row = await db.transaction(async (tx) => {
          await repo.lockTrainer(tx, trainerId);
          if ((await repo.countPending(tx, trainerId)) >= CERTIFICATE_RULES.pendingMax)
            throw new AppError('CONFLICT', CERTIFICATE_MSG.tooManyPending);
          return repo.insertCertificate(tx, { trainerId, issuer, expiresOn, fileKey, mime, bytes: data.length, at });
        });
        return { certificate: toCertificate(row, dayOf(at)), message: CERTIFICATE_MSG.uploaded };
      } catch (err) {
        await files.remove(fileKey);
        throw err;
      }
    },

    async listOwn(trainerId: string) {
      const today = dayOf(deps.now());
      const [rows, until] = await Promise.all([repo.certificatesOf(db, trainerId), repo.verifiedUntilOf(db, trainerId)]);
      return { certificates: rows.map((r) => toCertificate(r, today)), verified: until !== null && until >= today };
    },

    /** The file of a certificate: the trainer's own only (`trainerId`), or any for an operator (undefined). */
    async file(id: string, trainerId?: string) {
      const row = await repo.findCertificate(db, id);
      if (!row || (trainerId !== undefined && row.trainerId !== trainerId))
        throw new AppError('NOT_FOUND', CERTIFICATE_MSG.notFound);
      const stream = files.read(row.fileKey);
      if (!stream) throw new AppError('NOT_FOUND', CERTIFICATE_MSG.notFound);
      return { stream, mime: row.mime, bytes: row.bytes };
    },

    async queue(status?: CertificateStatus) {
      const today = dayOf(deps.now());
      return { certificates: (await repo.consoleCertificates(db, status)).map((r) => toConsole(r, today)) };
    },

    /**
     * An operator's decision on a pending certificate, in one transaction with its audit entry
     * (before/after), the trainer's verified_until and the jobs: the mail, and for an approval the
     * reminder 30 days before its last day and the recomputation the day after it.
     */
    async decide(input: { id: string; operatorId: string; status: 'approved' | 'rejected'; reason?: string }) {
      const at = deps.now();
      const today = dayOf(at);
      const reason = input.reason?.trim() || null;
      const { row, mailJob } = await db.transaction(async (tx) => {
        const before = await repo.findCertificateForUpdate(tx, input.id);
        if (!before) throw new AppError('NOT_FOUND', CERTIFICATE_MSG.notFound);
        if (before.status !== 'pending') throw new AppError('CONFLICT', CERTIFICATE_MSG.alreadyDecided);
        if (input.status === 'approved' && before.expiresOn < today) throw new AppError('CONFLICT', CERTIFICATE_MSG.expired);
        const after = await repo.decide(tx, input.id, { status: input.status, at, operatorId: input.operatorId, reason });
        if (!after) throw new AppError('CONFLICT', CERTIFICATE_MSG.alreadyDecided);
        const verified = await repo.recomputeVerifiedUntil(tx, after.trainerId, today);
        await writeAudit(tx, {
          at,
          operatorId: input.operatorId,
          action: input.status === 'approved' ? 'certificate.approve' : 'certificate.reject',
          targetKind: 'certificate',
          targetId: after.id,
          reason: reason ?? 'approved',
          before: { status: before.status, trainerId: before.trainerId, verifiedUntil: verified.before },
          after: { status: after.status, trainerId: after.trainerId, verifiedUntil: verified.after },
        });
        if (after.status === 'approved') {
          const last = startOf(after.expiresOn).getTime();
          const remindAt = new Date(Math.max(at.getTime(), last - CERTIFICATE_RULES.remindDaysBefore * DAY_MS));
          await jobs.enqueue(tx, { kind: CERTIFICATE_JOBS.remind, runAt: remindAt, payload: { certificateId: after.id } });
          await jobs.enqueue(tx, {
            kind: CERTIFICATE_JOBS.expired,
            runAt: new Date(last + DAY_MS),
            payload: { trainerId: after.trainerId },
          });
        }
        const mailJob = await jobs.enqueue(tx, {
          kind: CERTIFICATE_JOBS.decidedMail,
          runAt: at,
          payload: { certificateId: after.id },
          claimFor: RUN_NOW_CLAIM_MS,
        });
        return { row: after, mailJob };
      });
      await jobs
        .runClaimed(mailJob)
        .catch((err: unknown) => deps.log.warn({ err }, 'certificate mail not sent; a poller retries'));
      const full = await repo.consoleCertificate(db, row.id);
      return {
        certificate: toConsole(full!, today),
        message: row.status === 'approved' ? CERTIFICATE_MSG.approved : CERTIFICATE_MSG.rejected,
      };
    },

    /** The jobs' handlers (registered by the module). */
    async sendDecidedMail(certificateId: string) {
      const row = await repo.findCertificate(db, certificateId);
      if (!row || row.status === 'pending') return;
      await mailTrainer(db, row, (who) =>
        row.status === 'approved'
          ? certificateApprovedMail(who, row)
          : certificateRejectedMail(who, { ...row, reason: row.decisionReason ?? '' }),
      );
    },

    /**
     * The reminder, once per certificate (reminded_at, set in the transaction that mails it), and only
     * when the badge would go with it: not when a later approved certificate carries it on.
     */
    async remind(certificateId: string, at: Date) {
      await db.transaction(async (tx) => {
        const row = await repo.findCertificateForUpdate(tx, certificateId);
        if (!row || row.status !== 'approved' || row.remindedAt || row.expiresOn < dayOf(at)) return;
        const until = await repo.verifiedUntilOf(tx, row.trainerId);
        if (until !== null && until > row.expiresOn) return;
        if (!(await repo.markReminded(tx, row.id, at))) return;
        await mailTrainer(tx, row, (who) => certificateExpiringMail(who, row));
      });
    },

    /** On expiry: verified_until recomputed, so the badge goes (and cached answers drop, docs/caching.md). */
    /**
     * A deleted trainer's certificates (the purge job, enqueued in the deletion's transaction): the
     * files go first, then the rows, so a run cut short leaves rows that a run again removes with
     * their files, never a file that no row names.
     */
    async purgeOf(trainerId: string) {
      for (const key of await repo.fileKeysOf(db, trainerId)) await files.remove(key);
      await db.transaction((tx) => repo.deleteCertificatesOf(tx, trainerId));
    },

    async expire(trainerId: string, at: Date) {
      await db.transaction(async (tx) => {
        await repo.recomputeVerifiedUntil(tx, trainerId, dayOf(at));
      });
    },
  };
}
export type CertificatesService = ReturnType<typeof createCertificatesService>;
