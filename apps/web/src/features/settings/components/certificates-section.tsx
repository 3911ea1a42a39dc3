import { BadgeCheck, FileText } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import {
  CERTIFICATE_MSG,
  CERTIFICATE_RULES,
  ZCertificateFields,
  type TCertificate,
  type TCertificatesResponse,
} from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, inputClasses, TextField } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessage } from '@/lib/api-client';
import { getCertificateFile, useCertificates, useUploadCertificate } from '@/lib/api/certificates';
import { cn } from '@/lib/cn';
import { formatCalendarDate, formatDate, localDayKey } from '@/lib/format';
import { openFile } from '@/lib/open-file';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';
import { FormError, SavedNote } from './form-feedback';
import { SettingsSection } from './settings-section';

const ACCEPT = '.pdf,.jpg,.jpeg,.png,.webp';
const EXTENSIONS = ACCEPT.split(',');
const TYPES: readonly string[] = CERTIFICATE_RULES.types;
const DAY_MS = 24 * 60 * 60_000;

type Field = 'file' | 'issuer' | 'expiresOn';
type Errors = Partial<Record<Field, string>>;
const FIELDS: readonly Field[] = ['file', 'issuer', 'expiresOn'];

/** What the browser can check before a byte is sent (the server checks the content again). */
function checkFile(file: File | null): string | undefined {
  if (!file) return CERTIFICATE_MSG.fileRequired;
  const name = file.name.toLowerCase();
  // some systems give no type: the name's ending then says it
  const isKnown = file.type ? TYPES.includes(file.type) : EXTENSIONS.some((ending) => name.endsWith(ending));
  if (!isKnown) return CERTIFICATE_MSG.fileType;
  if (file.size > CERTIFICATE_RULES.maxBytes) return CERTIFICATE_MSG.fileTooLarge;
  return undefined;
}

/** The shared rules of the fields, and an expiry date today or later in the trainer's own calendar. */
function check(file: File | null, issuer: string, expiresOn: string, today: string): Errors {
  const errors: Errors = {};
  errors.file = checkFile(file);
  const parsed = ZCertificateFields.safeParse({ issuer, expiresOn });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = FIELDS.find((f) => f === issue.path[0]);
      if (field) errors[field] ??= issue.message;
    }
  }
  if (!errors.expiresOn && expiresOn < today) errors.expiresOn = CERTIFICATE_MSG.expired;
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as Errors;
}

/** Days from today until a calendar date (0 on the day itself). */
const daysUntil = (day: string, today: string) =>
  Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);

/** A certificate's state in words: never colour alone. */
function statusWords(certificate: TCertificate) {
  if (certificate.status === 'pending') return 'Waiting for review';
  if (certificate.status === 'rejected') {
    return certificate.decisionReason ? `Rejected: ${certificate.decisionReason}` : 'Rejected';
  }
  return certificate.current ? `Approved until ${formatCalendarDate(certificate.expiresOn)}` : 'Expired';
}

const statusClasses = (certificate: TCertificate) =>
  certificate.status === 'rejected'
    ? 'text-danger'
    : certificate.status === 'approved' && certificate.current
      ? 'text-success'
      : 'text-muted';

/**
 * Certificates (docs/product.md#verified-coaches): a trainer uploads a certificate with its issuer and
 * expiry date, sees what became of each, and whether they show as a verified coach today.
 */
export function CertificatesSection() {
  const { token } = useSession();
  const certificates = useCertificates(token);
  return (
    <SettingsSection
      id="certificates"
      title="Certificates"
      description="Upload a certificate of your training with its issuer and expiry date. An operator will check it; while an approved certificate has not expired, your card and profile show the 'Verified coach' badge."
    >
      <div className="space-y-8">
        <VerifiedNote data={certificates.data} />
        <UploadForm viewer={token} />
        <CertificateList query={certificates} />
      </div>
    </SettingsSection>
  );
}

function VerifiedNote({ data }: { data: TCertificatesResponse | undefined }) {
  if (!data) return null;
  return data.verified ? (
    <p className="flex items-center gap-2 rounded-xl border border-success-line bg-success-soft px-4 py-3 text-sm font-semibold text-success">
      <BadgeCheck className="size-5 shrink-0" aria-hidden="true" />
      You are a verified coach: your card and profile show the badge.
    </p>
  ) : (
    <p className="rounded-xl border border-line bg-surface px-4 py-3 text-sm text-ink">
      You are not a verified coach yet. The badge shows once an operator approves a certificate that has not expired.
    </p>
  );
}

function UploadForm({ viewer }: { viewer: string | null }) {
  const upload = useUploadCertificate(viewer);
  const [file, setFile] = useState<File | null>(null);
  const [issuer, setIssuer] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const fileId = useId();
  const refs = {
    file: useRef<HTMLInputElement>(null),
    issuer: useRef<HTMLInputElement>(null),
    expiresOn: useRef<HTMLInputElement>(null),
  };
  const today = localDayKey(new Date().toISOString());
  const isBusy = upload.isPending;

  const showErrors = (next: Errors) => {
    setErrors(next);
    const first = FIELDS.find((field) => next[field]);
    if (first) refs[first].current?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setDone(null);
    const found = check(file, issuer, expiresOn, today);
    if (Object.keys(found).length > 0 || !file) {
      showErrors(found);
      return;
    }
    setErrors({});
    upload.mutate(
      { file, issuer: issuer.trim(), expiresOn },
      {
        onSuccess: ({ message }) => {
          notify.success(message);
          setDone(message);
          setFile(null);
          setIssuer('');
          setExpiresOn('');
          if (refs.file.current) refs.file.current.value = '';
        },
        onError: (error) => {
          const fromServer: Errors = {};
          if (error instanceof ApiError && error.errors) {
            for (const [field, message] of Object.entries(error.errors)) {
              const known = FIELDS.find((f) => f === field);
              if (known) fromServer[known] = message;
            }
          }
          const isOnField = Object.keys(fromServer).length > 0;
          if (isOnField) showErrors(fromServer);
          setFailure(isOnField ? 'Please check the highlighted fields.' : errorMessage(error));
        },
      },
    );
  };

  const fileHintId = `${fileId}-hint`;
  const fileErrorId = `${fileId}-error`;

  return (
    <form noValidate onSubmit={submit} aria-labelledby={`${fileId}-title`} className="space-y-5">
      <h3 id={`${fileId}-title`} className="text-lg font-bold text-ink">
        Upload a certificate
      </h3>
      <div>
        <label htmlFor={fileId} className="mb-1.5 block text-sm font-semibold text-ink">
          Certificate file
        </label>
        <input
          ref={refs.file}
          id={fileId}
          type="file"
          accept={ACCEPT}
          disabled={isBusy}
          aria-invalid={errors.file ? true : undefined}
          aria-describedby={[fileHintId, errors.file ? fileErrorId : null].filter(Boolean).join(' ')}
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            setFile(chosen);
            setDone(null);
            setErrors((current) => ({ ...current, file: chosen ? checkFile(chosen) : undefined }));
          }}
          className={cn(
            inputClasses,
            'max-w-lg cursor-pointer file:mr-3 file:rounded-full file:border-0 file:bg-surface-strong file:px-3 file:py-1 file:text-sm file:font-semibold file:text-ink',
            errors.file ? 'border-danger' : 'border-line-strong hover:border-muted',
          )}
        />
        <p id={fileHintId} className="mt-1.5 text-sm text-subtle">
          A PDF, or a JPEG, PNG or WebP photo or scan, of at most 5 MB. Only you and Spotter’s operators see it.
        </p>
        <FieldError id={fileErrorId}>{errors.file}</FieldError>
      </div>
      <TextField
        ref={refs.issuer}
        label="Issuer"
        hint="Who issued the certificate, such as the academy or federation."
        value={issuer}
        maxLength={CERTIFICATE_RULES.issuerMax}
        autoComplete="off"
        disabled={isBusy}
        error={errors.issuer}
        onChange={(event) => setIssuer(event.target.value)}
        containerClassName="max-w-lg"
      />
      <TextField
        ref={refs.expiresOn}
        label="Expiry date"
        type="date"
        min={today}
        hint="The date printed on the certificate. We remind you 30 days before it."
        value={expiresOn}
        disabled={isBusy}
        error={errors.expiresOn}
        onChange={(event) => setExpiresOn(event.target.value)}
        containerClassName="max-w-xs"
      />
      <FormError message={failure} />
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" isLoading={isBusy}>
          Upload certificate
        </Button>
        <div aria-live="polite" className="text-sm">
          {isBusy && <p className="font-semibold text-ink">Uploading your certificate…</p>}
          <SavedNote message={isBusy ? null : done} />
        </div>
      </div>
    </form>
  );
}

function CertificateList({ query }: { query: ReturnType<typeof useCertificates> }) {
  const today = localDayKey(new Date().toISOString());
  return (
    <section aria-labelledby="your-certificates-heading">
      <h3 id="your-certificates-heading" className="text-lg font-bold text-ink">
        Your certificates
      </h3>
      <div className="mt-3">
        {query.isPending ? (
          <div className="space-y-3" aria-hidden="true">
            <Skeleton className="h-20 rounded-xl" />
            <Skeleton className="h-20 rounded-xl" />
          </div>
        ) : query.isError ? (
          <Alert
            tone="error"
            action={
              <Button variant="outline" onClick={() => void query.refetch()}>
                Try again
              </Button>
            }
          >
            Your certificates could not be loaded. {errorMessage(query.error)}
          </Alert>
        ) : query.data.certificates.length === 0 ? (
          <p className="rounded-xl border border-dashed border-line-strong px-4 py-6 text-center text-sm text-muted">
            You have not uploaded a certificate yet.
          </p>
        ) : (
          <ul className="space-y-3">
            {query.data.certificates.map((certificate) => (
              <CertificateItem key={certificate._id} certificate={certificate} today={today} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function CertificateItem({ certificate, today }: { certificate: TCertificate; today: string }) {
  const [isOpening, setOpening] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = `certificate-${certificate._id}`;
  const isEndingSoon =
    certificate.status === 'approved' &&
    certificate.current &&
    daysUntil(certificate.expiresOn, today) <= CERTIFICATE_RULES.remindDaysBefore;
  const extension = certificate.mime === 'application/pdf' ? 'pdf' : (certificate.mime.split('/')[1] ?? 'bin');

  const open = async () => {
    setFailure(null);
    setOpening(true);
    try {
      await openFile(() => getCertificateFile(certificate._id), `certificate.${extension}`);
    } catch (error) {
      setFailure(`The file could not be opened. ${errorMessage(error)}`);
    } finally {
      setOpening(false);
    }
  };

  return (
    <li className="rounded-xl border border-line p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h4 id={headingId} className="font-semibold break-words text-ink">
            {certificate.issuer}
          </h4>
          <p className={cn('mt-1 text-sm font-semibold break-words', statusClasses(certificate))}>{statusWords(certificate)}</p>
          <p className="mt-1 text-sm text-subtle">
            Expires {formatCalendarDate(certificate.expiresOn)} · uploaded {formatDate(certificate.createdAt)}
          </p>
          {isEndingSoon && (
            <p className="mt-1 text-sm font-medium text-warning-ink">
              It expires soon: upload the renewed certificate to stay a verified coach.
            </p>
          )}
        </div>
        <Button variant="outline" onClick={() => void open()} isLoading={isOpening} className="self-start">
          {!isOpening && <FileText className="size-4" aria-hidden="true" />}
          Open file
          <span className="sr-only">{`: ${certificate.issuer} (opens in a new tab)`}</span>
        </Button>
      </div>
      {failure && (
        <Alert tone="error" className="mt-3">
          {failure}
        </Alert>
      )}
    </li>
  );
}
