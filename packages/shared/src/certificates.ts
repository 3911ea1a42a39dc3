import { z } from 'zod';

/**
 * Trainers' certificates and the 'Verified coach' badge (docs/product.md#verified-coaches): a trainer
 * uploads a certificate (PDF or image) with its issuer and expiry date; it is kept privately (only
 * the trainer and operators read it) until an operator approves or rejects it. An approved certificate
 * that has not expired makes the trainer a verified coach; 30 days before it expires the trainer is
 * reminded, and on expiry the badge goes.
 */
export const CERTIFICATE_RULES = {
  /** The largest file taken, in bytes. */
  maxBytes: 5 * 1024 * 1024,
  /** What a certificate may be: a PDF, or a photo or scan (re-encoded like profile photos). */
  types: ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'] as const,
  issuerMax: 120,
  /** The reminder goes this many days before the expiry date. */
  remindDaysBefore: 30,
  /** A trainer's pending certificates at most (the queue is not a storage service). */
  pendingMax: 5,
} as const;

export const CERTIFICATE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

export const CERTIFICATE_MSG = {
  issuerRequired: 'Say who issued the certificate',
  issuerLong: `Keep the issuer under ${CERTIFICATE_RULES.issuerMax} characters`,
  expiresRequired: 'Give the date the certificate expires, such as 2027-06-30',
  expired: 'This certificate has already expired',
  fileRequired: 'Choose a PDF or an image of the certificate',
  fileType: 'A certificate must be a PDF, JPEG, PNG or WebP file',
  fileTooLarge: 'A certificate must be at most 5 MB',
  fileUnreadable: 'We could not read this file. Upload a PDF or a clear photo or scan.',
  tooManyPending: `You have ${CERTIFICATE_RULES.pendingMax} certificates waiting for review already`,
  uploaded: 'Thank you. An operator will check your certificate, usually within two working days.',
  notFound: 'There is no such certificate',
  approved: 'Approved. The trainer shows as a verified coach until it expires.',
  rejected: 'Rejected. The trainer is told why.',
  alreadyDecided: 'This certificate was already decided',
} as const;

/** YYYY-MM-DD, a real calendar day. */
const ZDay = z
  .string({ error: CERTIFICATE_MSG.expiresRequired })
  .regex(/^\d{4}-\d{2}-\d{2}$/, CERTIFICATE_MSG.expiresRequired)
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
    message: CERTIFICATE_MSG.expiresRequired,
  });

/** POST /api/trainer/certificates (multipart): the text fields beside `file`. */
export const ZCertificateFields = z.object({
  issuer: z
    .string({ error: CERTIFICATE_MSG.issuerRequired })
    .trim()
    .min(2, CERTIFICATE_MSG.issuerRequired)
    .max(CERTIFICATE_RULES.issuerMax, CERTIFICATE_MSG.issuerLong),
  expiresOn: ZDay,
});
export type TCertificateFields = z.input<typeof ZCertificateFields>;

/** A certificate as its trainer sees it. */
export const ZCertificate = z.object({
  _id: z.string(),
  issuer: z.string(),
  expiresOn: z.string(),
  status: z.enum(CERTIFICATE_STATUSES),
  /** Approved and not expired: it makes the trainer a verified coach today. */
  current: z.boolean(),
  mime: z.string(),
  bytes: z.number().int(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** Why it was rejected (the operator's words), or null. */
  decisionReason: z.string().nullable(),
});
export type TCertificate = z.infer<typeof ZCertificate>;

/** GET /api/trainer/certificates: the trainer's own, newest first. */
export const ZCertificatesResponse = z.object({ certificates: z.array(ZCertificate), verified: z.boolean() });
export type TCertificatesResponse = z.infer<typeof ZCertificatesResponse>;
export const ZCertificateUploadResponse = z.object({ certificate: ZCertificate, message: z.string() });
export type TCertificateUploadResponse = z.infer<typeof ZCertificateUploadResponse>;

/** A certificate in the operators' queue, with its trainer. The file: GET /api/console/certificates/:id/file. */
export const ZConsoleCertificate = ZCertificate.extend({
  trainerId: z.string(),
  trainerName: z.string(),
  trainerEmail: z.string(),
});
export type TConsoleCertificate = z.infer<typeof ZConsoleCertificate>;

/** GET /api/console/certificates?status=pending: pending ones oldest first, the others newest first; 100 at most. */
export const ZConsoleCertificatesQuery = z.object({
  status: z.enum(CERTIFICATE_STATUSES, { error: 'Choose pending, approved or rejected' }).optional(),
});
export const ZConsoleCertificatesResponse = z.object({ certificates: z.array(ZConsoleCertificate) });
export type TConsoleCertificatesResponse = z.infer<typeof ZConsoleCertificatesResponse>;

/** POST /api/console/certificates/:id/approve (a reason is optional) and /reject { reason } (required). */
export const ZApproveCertificateRequest = z.object({ reason: z.string().trim().max(500).optional() }).default({});
export const ZConsoleCertificateDecisionResponse = z.object({ certificate: ZConsoleCertificate, message: z.string() });
export type TConsoleCertificateDecisionResponse = z.infer<typeof ZConsoleCertificateDecisionResponse>;
