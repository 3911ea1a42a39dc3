// Trainers' certificates and the 'Verified coach' badge (docs/product.md#verified-coaches): upload,
// the checks of the file, who reads it, the operators' queue and decisions, and the badge.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CERTIFICATE_MSG, CERTIFICATE_RULES, type TCertificate, type TConsoleCertificate } from '@spotter/shared';
import { accounts, certificates } from '../src/db/schema';
import { createAccount, useTestApp } from './helper';
import { signedInOperator } from './support/console';
import { inDays, pdf, pdfWithCompressedAction, uploadCertificate } from './support/certificates';
import { until } from './support/until';

const t = await useTestApp();
const operator = await signedInOperator(t);
const asOperator = { authorization: operator.token };

const photoWithExif = (seed = Math.floor(Math.random() * 256)) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r: seed, g: 120, b: 40 } } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Copyright: 'secret-exif-marker', Artist: 'Someone' } } })
    .toBuffer();

const valid = () => ({ issuer: 'National Academy of Sports Medicine', expiresOn: inDays(400) });
const storedRow = async (id: string) => (await t.database.db.select().from(certificates).where(eq(certificates.id, id)))[0];
const upload = async (token: string, data: Buffer = pdf(), fields: Record<string, string> = valid()) => {
  const res = await uploadCertificate(t, token, fields, { data });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().certificate as TCertificate;
};
const profile = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/trainerData/${id}` })).json().trainerData;
/** The list narrowed to these trainers (the PostgreSQL test database is shared and kept). */
const listed = async (ids: string[], query = '') =>
  (await t.app.inject({ method: 'GET', url: `/api/trainers?ids=${ids.join(',')}${query}` })).json().viewAllTrainers as Array<{
    _id: string;
    verified: boolean;
  }>;
const decide = (id: string, action: 'approve' | 'reject', payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/console/certificates/${id}/${action}`, headers: asOperator, payload });

describe('uploading a certificate', () => {
  it('re-encodes an image (other bytes, EXIF gone) and keeps it privately under a random name', async () => {
    const trainer = await createAccount(t, 'trainer');
    const photo = await photoWithExif();
    const res = await uploadCertificate(t, trainer.token, valid(), { data: photo, filename: 'me.jpg', type: 'image/jpeg' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(CERTIFICATE_MSG.uploaded);
    const cert = res.json().certificate as TCertificate;
    expect(cert).toMatchObject({ status: 'pending', current: false, mime: 'image/webp', issuer: valid().issuer });

    const row = await storedRow(cert._id);
    expect(row.fileKey).toMatch(/^[0-9a-f]{48}$/);
    const stored = readFileSync(join(t.config.dataDir, 'certificates', row.fileKey));
    expect(stored.equals(photo)).toBe(false);
    expect(stored.includes(Buffer.from('secret-exif-marker'))).toBe(false);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();

    const file = await t.app.inject({
      method: 'GET',
      url: `/api/trainer/certificates/${cert._id}/file`,
      headers: { authorization: trainer.token },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.headers['content-disposition']).toBe('inline');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.rawPayload.equals(stored)).toBe(true);
  });

  it('keeps a passive PDF as sent and answers it sandboxed', async () => {
    const trainer = await createAccount(t, 'trainer');
    const cert = await upload(trainer.token);
    expect(cert.mime).toBe('application/pdf');
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/trainer/certificates/${cert._id}/file`,
      headers: { authorization: trainer.token },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-security-policy']).toBe('sandbox');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.rawPayload.equals(pdf())).toBe(true);
  });

  it('tells the type by the content, not by the name or the type the client sends', async () => {
    const trainer = await createAccount(t, 'trainer');
    const res = await uploadCertificate(t, trainer.token, valid(), {
      data: Buffer.from('just some text, not a PDF at all'),
      filename: 'certificate.pdf',
      type: 'application/pdf',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(CERTIFICATE_MSG.fileType);
  });

  it('refuses a file over 5 MB', async () => {
    const trainer = await createAccount(t, 'trainer');
    const big = Buffer.concat([pdf(), Buffer.alloc(CERTIFICATE_RULES.maxBytes, 0x20)]);
    const res = await uploadCertificate(t, trainer.token, valid(), { data: big });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(CERTIFICATE_MSG.fileTooLarge);
  });

  it.each([
    ['a script', pdf('/Names << /JavaScript 5 0 R >> ')],
    ['an open action', pdf('/OpenAction 6 0 R ')],
    ['a launch action spelled with #xx', pdf('/AA << /O << /S /La#75nch /F (calc.exe) >> >> ')],
    ['an embedded file', pdf('/Names << /EmbeddedFiles 7 0 R >> ')],
    ['a script inside a compressed object stream', pdfWithCompressedAction()],
  ])('refuses a PDF with %s', async (_what, data) => {
    const trainer = await createAccount(t, 'trainer');
    const res = await uploadCertificate(t, trainer.token, valid(), { data });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(CERTIFICATE_MSG.fileUnreadable);
    expect(await t.database.db.select().from(certificates).where(eq(certificates.trainerId, trainer.id))).toEqual([]);
  });

  it('refuses a past expiry date, a missing issuer or date, a missing file, and a user', async () => {
    const trainer = await createAccount(t, 'trainer');
    const past = await uploadCertificate(t, trainer.token, { ...valid(), expiresOn: inDays(-1) }, { data: pdf() });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(CERTIFICATE_MSG.expired);
    const noIssuer = await uploadCertificate(t, trainer.token, { expiresOn: inDays(30) }, { data: pdf() });
    expect(noIssuer.statusCode).toBe(400);
    expect(noIssuer.json().errors.issuer).toBe(CERTIFICATE_MSG.issuerRequired);
    const badDate = await uploadCertificate(t, trainer.token, { issuer: 'NASM', expiresOn: '2027-02-30' }, { data: pdf() });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().errors.expiresOn).toBe(CERTIFICATE_MSG.expiresRequired);
    const noFile = await uploadCertificate(t, trainer.token, valid());
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe(CERTIFICATE_MSG.fileRequired);

    const user = await createAccount(t, 'user');
    expect((await uploadCertificate(t, user.token, valid(), { data: pdf() })).statusCode).toBe(403);
    expect((await uploadCertificate(t, undefined, valid(), { data: pdf() })).statusCode).toBe(401);
    expect(await t.database.db.select().from(certificates).where(eq(certificates.trainerId, trainer.id))).toEqual([]);
  });

  it(`refuses a trainer with ${CERTIFICATE_RULES.pendingMax} certificates waiting`, async () => {
    const trainer = await createAccount(t, 'trainer');
    for (let i = 0; i < CERTIFICATE_RULES.pendingMax; i++) await upload(trainer.token);
    const res = await uploadCertificate(t, trainer.token, valid(), { data: pdf() });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(CERTIFICATE_MSG.tooManyPending);
  });
});

describe('who reads certificates', () => {
  it('the trainer lists their own; only they and operators read the file', async () => {
    const trainer = await createAccount(t, 'trainer');
    const other = await createAccount(t, 'trainer');
    const user = await createAccount(t, 'user');
    const cert = await upload(trainer.token);

    const own = await t.app.inject({
      method: 'GET',
      url: '/api/trainer/certificates',
      headers: { authorization: trainer.token },
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.json()).toEqual({ certificates: [cert], verified: false });
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/trainer/certificates',
      headers: { authorization: other.token },
    });
    expect(theirs.json()).toEqual({ certificates: [], verified: false });

    const url = `/api/trainer/certificates/${cert._id}/file`;
    expect((await t.app.inject({ method: 'GET', url, headers: { authorization: other.token } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url, headers: { authorization: user.token } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    // the operators' route is the operators'
    const consoleUrl = `/api/console/certificates/${cert._id}/file`;
    expect((await t.app.inject({ method: 'GET', url: consoleUrl, headers: { authorization: trainer.token } })).statusCode).toBe(
      403,
    );
    expect((await t.app.inject({ method: 'GET', url: consoleUrl })).statusCode).toBe(401);
    const read = await t.app.inject({ method: 'GET', url: consoleUrl, headers: asOperator });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-security-policy']).toBe('sandbox');
    expect(read.rawPayload.equals(pdf())).toBe(true);
  });
});

describe('a trainer who deletes their account', () => {
  it('leaves no certificate behind: the files and the rows go, for them and for operators', async () => {
    const trainer = await createAccount(t, 'trainer');
    const first = await upload(trainer.token);
    const second = await upload(trainer.token, await photoWithExif());
    const keys = [(await storedRow(first._id)).fileKey, (await storedRow(second._id)).fileKey];
    const fileOf = (key: string) => join(t.config.dataDir, 'certificates', key);
    expect(keys.every((key) => existsSync(fileOf(key)))).toBe(true);

    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/trainer',
      headers: { authorization: trainer.token },
      payload: { password: trainer.password },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    const rowsOf = () => t.database.db.select().from(certificates).where(eq(certificates.trainerId, trainer.id));
    // the purge is a durable job: run what is due (a poller may run it too) until it is done
    await until(async () => {
      await t.app.jobs.runDue({});
      return (await rowsOf()).length === 0;
    }, 'the deleted trainer’s certificates removed');
    expect(keys.filter((key) => existsSync(fileOf(key)))).toEqual([]);
    const read = await t.app.inject({ method: 'GET', url: `/api/console/certificates/${first._id}/file`, headers: asOperator });
    expect(read.statusCode).toBe(404);
  });
});

describe('the operators’ queue', () => {
  it('approving makes the trainer a verified coach on the profile, the list and the filter; the trainer is mailed', async () => {
    const trainer = await createAccount(t, 'trainer');
    const plain = await createAccount(t, 'trainer');
    const cert = await upload(trainer.token);
    expect((await profile(trainer.id)).verified).toBe(false);

    const queue = await t.app.inject({ method: 'GET', url: '/api/console/certificates?status=pending', headers: asOperator });
    expect(queue.statusCode).toBe(200);
    const queued = (queue.json().certificates as TConsoleCertificate[]).find((c) => c._id === cert._id);
    expect(queued).toMatchObject({ trainerId: trainer.id, trainerEmail: trainer.email, status: 'pending' });

    const res = await decide(cert._id, 'approve');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(CERTIFICATE_MSG.approved);
    expect(res.json().certificate).toMatchObject({ status: 'approved', current: true, decisionReason: null });
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, trainer.id));
    expect(account.verifiedUntil).toBe(valid().expiresOn);

    await until(async () => (await profile(trainer.id)).verified === true, 'the profile to show the badge');
    expect((await profile(plain.id)).verified).toBe(false);
    const all = await listed([trainer.id, plain.id]);
    expect(all.find((c) => c._id === trainer.id)?.verified).toBe(true);
    expect(all.find((c) => c._id === plain.id)?.verified).toBe(false);
    const verified = await listed([trainer.id, plain.id], '&verified=true');
    expect(verified.map((c) => c._id)).toContain(trainer.id);
    expect(verified.map((c) => c._id)).not.toContain(plain.id);
    expect(verified.every((c) => c.verified)).toBe(true);

    const own = await t.app.inject({
      method: 'GET',
      url: '/api/trainer/certificates',
      headers: { authorization: trainer.token },
    });
    expect(own.json()).toMatchObject({ verified: true, certificates: [{ _id: cert._id, status: 'approved', current: true }] });

    await until(() => t.outbox().some((m) => m.to === trainer.email && /approved/.test(m.subject)), 'the approval mail');

    const audit = await t.app.inject({ method: 'GET', url: `/api/console/audit?targetId=${cert._id}`, headers: asOperator });
    expect(audit.json().entries).toEqual([
      expect.objectContaining({
        action: 'certificate.approve',
        operatorId: operator.id,
        targetKind: 'certificate',
        before: { status: 'pending', trainerId: trainer.id, verifiedUntil: null },
        after: { status: 'approved', trainerId: trainer.id, verifiedUntil: valid().expiresOn },
      }),
    ]);

    // decided once only
    const again = await decide(cert._id, 'reject', { reason: 'Changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CERTIFICATE_MSG.alreadyDecided);
  });

  it('rejecting needs a reason, mails it, and leaves the trainer unverified', async () => {
    const trainer = await createAccount(t, 'trainer');
    const cert = await upload(trainer.token);
    expect((await decide(cert._id, 'reject', {})).statusCode).toBe(400);

    const res = await decide(cert._id, 'reject', { reason: 'The scan is cut off at the bottom' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().certificate).toMatchObject({
      status: 'rejected',
      current: false,
      decisionReason: 'The scan is cut off at the bottom',
    });
    expect((await profile(trainer.id)).verified).toBe(false);
    expect(await listed([trainer.id], '&verified=true')).toEqual([]);

    await until(() => t.outbox().some((m) => m.to === trainer.email && /not approved/.test(m.subject)), 'the rejection mail');
    const mail = t.outbox().find((m) => m.to === trainer.email && /not approved/.test(m.subject))!;
    expect(mail.text).toContain('The scan is cut off at the bottom');

    const own = await t.app.inject({
      method: 'GET',
      url: '/api/trainer/certificates',
      headers: { authorization: trainer.token },
    });
    expect(own.json().certificates[0]).toMatchObject({ status: 'rejected', decisionReason: 'The scan is cut off at the bottom' });

    expect((await decide(cert._id, 'approve')).statusCode).toBe(409);
    const audit = await t.app.inject({ method: 'GET', url: `/api/console/audit?targetId=${cert._id}`, headers: asOperator });
    expect(audit.json().entries.map((e: { action: string }) => e.action)).toEqual(['certificate.reject']);
    expect(audit.json().entries[0]).toMatchObject({ reason: 'The scan is cut off at the bottom' });
  });

  it('answers 404 for an unknown certificate', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await decide(unknown, 'approve')).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/console/certificates/${unknown}/file`, headers: asOperator })).statusCode,
    ).toBe(404);
  });
});
