import { useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { useId, useRef, useState, type RefObject } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { CERTIFICATE_STATUSES, type CertificateStatus, type TConsoleCertificate } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { consoleApi, useConsoleSession, type CertificateDecision } from '@/lib/api/console';
import { cn } from '@/lib/cn';
import { formatCalendarDate } from '@/lib/format';
import { openFile } from '@/lib/open-file';
import { paths } from '@/lib/paths';
import { CONSOLE_QUERY, ConsolePage } from './console-layout';
import { ActionMessage, Badge, Empty, LoadError, Loading, useRefreshConsole, When } from './console-ui';
import { ReasonAction } from './reason-action';

const STATUS_WORDS: Record<CertificateStatus, string> = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' };
const statusTones = { pending: 'warning', approved: 'success', rejected: 'danger' } as const;
const EMPTY_WORDS: Record<CertificateStatus, string> = {
  pending: 'No certificates waiting.',
  approved: 'No approved certificates.',
  rejected: 'No rejected certificates.',
};

const statusOf = (value: string | null): CertificateStatus =>
  CERTIFICATE_STATUSES.find((status) => status === value) ?? 'pending';

const DECISIONS: Record<
  CertificateDecision,
  { label: string; title: string; description: string; confirm: string; hint: string }
> = {
  approve: {
    label: 'Approve',
    title: 'Approve the certificate?',
    description:
      'The trainer shows as a verified coach until it expires. Check the file first: the issuer, the name on it and the expiry date.',
    confirm: 'Approve',
    hint: 'Kept in the audit log. You may leave it empty.',
  },
  reject: {
    label: 'Reject',
    title: 'Reject the certificate?',
    description: 'The trainer is told why, in your words, and can upload another one.',
    confirm: 'Reject',
    hint: 'The trainer reads it. Kept in the audit log.',
  },
};

const linkClasses = 'font-semibold text-ink underline underline-offset-4';

const fileName = (certificate: TConsoleCertificate) => {
  const extension = certificate.mime === 'application/pdf' ? 'pdf' : (certificate.mime.split('/')[1] ?? 'bin');
  return `certificate-${certificate._id}.${extension}`;
};

/**
 * `/console/certificates`, the certificates queue (docs/product.md#verified-coaches): trainers' uploads
 * waiting for review, oldest first, each opened and then approved (a reason optional) or rejected (a
 * reason the trainer reads); the decided ones by status.
 */
export function ConsoleCertificatesPage() {
  const { token } = useConsoleSession();
  if (!token) return <Navigate to={paths.console.login.getHref()} replace />;
  return <Certificates token={token} />;
}

function Certificates({ token }: { token: string }) {
  const [params, setParams] = useSearchParams();
  const status = statusOf(params.get('status'));
  const certificates = useQuery({
    queryKey: [CONSOLE_QUERY, 'certificates', token, status],
    queryFn: () => consoleApi.certificates(status),
  });
  const refresh = useRefreshConsole();
  const [message, setMessage] = useState<string | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const selectId = useId();
  const list = certificates.data?.certificates ?? [];
  const words = STATUS_WORDS[status].toLowerCase();

  const choose = (next: CertificateStatus) => {
    setMessage(null);
    setParams(next === 'pending' ? {} : { status: next });
  };

  return (
    <ConsolePage title="Certificates" wide>
      <p className="text-muted">
        Trainers’ certificates. An approved certificate that has not expired shows the trainer as a verified coach. Pending ones
        come oldest first.
      </p>
      <div className="mt-6 max-w-xs">
        <label htmlFor={selectId} className="mb-1.5 block text-sm font-semibold text-ink">
          Status
        </label>
        <select
          id={selectId}
          value={status}
          onChange={(event) => choose(statusOf(event.target.value))}
          className={cn(inputClasses, 'border-line-strong')}
        >
          {CERTIFICATE_STATUSES.map((each) => (
            <option key={each} value={each}>
              {STATUS_WORDS[each]}
            </option>
          ))}
        </select>
      </div>

      <div className="mt-4">
        <ActionMessage ref={messageRef} message={message} />
      </div>

      <p role="status" className="mt-4 text-sm text-muted">
        {certificates.isSuccess &&
          list.length > 0 &&
          `${list.length === 1 ? `1 ${words} certificate` : `${list.length} ${words} certificates`}${status === 'pending' ? ', oldest first' : ''}`}
      </p>
      <div className="mt-3">
        {certificates.isPending ? (
          <Loading label="Loading the certificates…" />
        ) : certificates.isError ? (
          <LoadError
            what="The certificates could not be loaded."
            error={certificates.error}
            onRetry={() => void certificates.refetch()}
          />
        ) : list.length === 0 ? (
          <Empty>{EMPTY_WORDS[status]}</Empty>
        ) : (
          <ol aria-label={`${STATUS_WORDS[status]} certificates`} className="space-y-4">
            {list.map((certificate) => (
              <li key={certificate._id}>
                <CertificateCard
                  certificate={certificate}
                  focusAfter={messageRef}
                  onDecided={(text) => {
                    setMessage(text);
                    void refresh();
                  }}
                />
              </li>
            ))}
          </ol>
        )}
      </div>
    </ConsolePage>
  );
}

type CertificateCardProps = {
  certificate: TConsoleCertificate;
  onDecided: (message: string) => void;
  focusAfter: RefObject<HTMLElement | null>;
};

/** One certificate as operators check it: whose, the issuer, the dates, the file, and (while pending) the decision. */
function CertificateCard({ certificate, onDecided, focusAfter }: CertificateCardProps) {
  const headingId = `certificate-${certificate._id}`;
  const isPending = certificate.status === 'pending';
  const about = `: certificate of ${certificate.trainerName}`;
  return (
    <article aria-labelledby={headingId} className="rounded-2xl border border-line bg-canvas p-4 text-sm sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="font-display text-lg font-bold break-words text-ink">
          {certificate.issuer}
          <span className="sr-only">{`, certificate of ${certificate.trainerName}`}</span>
        </h2>
        <div className="flex flex-wrap gap-2">
          <Badge tone={statusTones[certificate.status]}>{STATUS_WORDS[certificate.status]}</Badge>
          {certificate.status === 'approved' && !certificate.current && <Badge tone="neutral">Expired</Badge>}
        </div>
      </div>

      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
        <dt className="text-muted">Trainer</dt>
        <dd className="min-w-0 break-words">
          <Link to={paths.console.person.getHref(certificate.trainerId)} className={linkClasses}>
            {certificate.trainerName}
          </Link>{' '}
          <span className="break-all text-muted">{certificate.trainerEmail}</span>
        </dd>
        <dt className="text-muted">Issuer</dt>
        <dd className="break-words">{certificate.issuer}</dd>
        <dt className="text-muted">Expires</dt>
        <dd>
          <time dateTime={certificate.expiresOn}>{formatCalendarDate(certificate.expiresOn)}</time>
        </dd>
        <dt className="text-muted">Uploaded</dt>
        <dd>
          <When at={certificate.createdAt} />
        </dd>
        {certificate.decidedAt && (
          <>
            <dt className="text-muted">Decided</dt>
            <dd className="break-words">
              <When at={certificate.decidedAt} />
              {certificate.decisionReason && `: ${certificate.decisionReason}`}
            </dd>
          </>
        )}
      </dl>

      <div className="mt-4 flex flex-wrap gap-2">
        <OpenFileButton certificate={certificate} about={about} />
        {isPending &&
          (['approve', 'reject'] as const).map((decision) => (
            <ReasonAction
              key={decision}
              label={
                <>
                  {DECISIONS[decision].label}
                  <span className="sr-only">{about}</span>
                </>
              }
              title={DECISIONS[decision].title}
              description={DECISIONS[decision].description}
              confirmLabel={DECISIONS[decision].confirm}
              danger={decision === 'reject'}
              reasonHint={DECISIONS[decision].hint}
              isReasonOptional={decision === 'approve'}
              act={(reason) => consoleApi.decideCertificate(certificate._id, decision, reason ? { reason } : {})}
              onDone={onDecided}
              focusAfter={focusAfter}
            />
          ))}
      </div>
    </article>
  );
}

/** Fetches the file with the console's token and opens it in a new tab; a failure is said beside the button. */
function OpenFileButton({ certificate, about }: { certificate: TConsoleCertificate; about: string }) {
  const [isOpening, setOpening] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const open = async () => {
    setFailure(null);
    setOpening(true);
    try {
      await openFile(() => consoleApi.certificateFile(certificate._id), fileName(certificate));
    } catch (error) {
      setFailure(`The file could not be opened. ${errorMessage(error)}`);
    } finally {
      setOpening(false);
    }
  };
  return (
    <>
      <Button variant="secondary" onClick={() => void open()} isLoading={isOpening}>
        {!isOpening && <FileText className="size-4" aria-hidden="true" />}
        Open the file
        <span className="sr-only">{`${about} (opens in a new tab)`}</span>
      </Button>
      {failure && (
        <Alert tone="error" className="basis-full">
          {failure}
        </Alert>
      )}
    </>
  );
}
