import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { TestApp } from '../helper';

/** A multipart body of certificate fields and a file (the file's name and type are the client's, not trusted). */
export function certificateForm(fields: Record<string, string>, file?: { data: Buffer; filename?: string; type?: string }) {
  const boundary = `----cert${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename ?? 'certificate.pdf'}"\r\nContent-Type: ${file.type ?? 'application/pdf'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A small, passive PDF; `extra` goes into its catalogue. */
export const pdf = (extra = '', text = 'Certified personal trainer') =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R ${extra}>>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n` +
      `3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>\nendobj\n% ${text}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );

/** A PDF whose open action hides in a Flate-compressed object stream. */
export const pdfWithCompressedAction = () => {
  const hidden = deflateSync(Buffer.from('<< /Type /Action /S /JavaScript /JS (app.alert(1)) >>', 'latin1'));
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.7\n4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${hidden.length} >>\nstream\n`,
      'latin1',
    ),
    hidden,
    Buffer.from('\nendstream\nendobj\n' + pdf().toString('latin1').slice(9), 'latin1'),
  ]);
};

export const inDays = (days: number, from = Date.now()) => new Date(from + days * 86_400_000).toISOString().slice(0, 10);

export async function uploadCertificate(
  t: TestApp,
  token: string | undefined,
  fields: Record<string, string>,
  file?: { data: Buffer; filename?: string; type?: string },
) {
  const form = certificateForm(fields, file);
  return t.app.inject({
    method: 'POST',
    url: '/api/trainer/certificates',
    payload: form.payload,
    headers: { ...form.headers, ...(token ? { authorization: token } : {}) },
  });
}
