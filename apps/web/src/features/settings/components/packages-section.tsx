import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { PACKAGE_MSG, PACKAGE_RULES, ZPutPackagesRequest, type TPutPackagesRequest, type TTrainerPackage } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, inputClasses, TextField } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useSavePackages } from '@/lib/api/packages';
import { useTrainer } from '@/lib/api/trainers';
import { cn } from '@/lib/cn';
import { formatMoney } from '@/lib/money';
import { notify } from '@/lib/toast';
import { FormError, SavedNote } from './form-feedback';
import { SettingsSection } from './settings-section';

/** One row as typed: text until it is checked; `validity` is '' for no end date. */
type Row = { key: number; sessions: string; price: string; validity: string };
type Errors = Record<string, string>;

let nextKey = 0;
const rowOf = (pkg?: TTrainerPackage): Row => ({
  key: nextKey++,
  sessions: pkg ? String(pkg.sessions) : '5',
  price: pkg ? String(pkg.price) : '',
  validity: pkg ? (pkg.validityMonths === null ? '' : String(pkg.validityMonths)) : '3',
});

const MONTHS = Array.from({ length: PACKAGE_RULES.maxValidityMonths }, (_, i) => i + PACKAGE_RULES.minValidityMonths);

const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** The request the rows make, and the messages of the shared rules (plus 'cheaper than one by one') by field. */
function check(rows: Row[], sessionPrice: number): { request: TPutPackagesRequest; errors: Errors } {
  const request = {
    packages: rows.map((row) => ({
      sessions: numberOf(row.sessions),
      price: numberOf(row.price),
      validityMonths: row.validity === '' ? null : Number(row.validity),
    })),
  };
  const errors: Errors = {};
  const parsed = ZPutPackagesRequest.safeParse(request);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
  }
  request.packages.forEach((pkg, i) => {
    const full = pkg.sessions * sessionPrice;
    if (sessionPrice > 0 && Number.isFinite(full) && pkg.price >= full)
      errors[`packages.${i}.price`] ??= PACKAGE_MSG.notCheaper(full);
  });
  return { request, errors };
}

/** '$36 a session, saves $20' as the row is typed, against the trainer's own price. */
function RowSummary({ row, sessionPrice }: { row: Row; sessionPrice: number }) {
  const sessions = numberOf(row.sessions);
  const price = numberOf(row.price);
  if (!Number.isInteger(sessions) || sessions < 1 || !Number.isFinite(price) || price <= 0) {
    return <p className="text-sm text-subtle">Enter the sessions and the total to see the price of a session.</p>;
  }
  const perSession = Math.floor((price * 100) / sessions) / 100;
  const saving = sessions * sessionPrice - price;
  return (
    <p className="text-sm font-semibold text-ink">
      {formatMoney(perSession)} a session
      {sessionPrice > 0 && saving > 0 && `, saves ${formatMoney(saving)}`}
      {sessionPrice > 0 && saving <= 0 && (
        <span className="font-normal text-warning-ink"> (no cheaper than {formatMoney(sessionPrice)} a session one by one)</span>
      )}
    </p>
  );
}

function PackageRow({
  row,
  index,
  errors,
  sessionPrice,
  onChange,
  onRemove,
}: {
  row: Row;
  index: number;
  errors: Errors;
  sessionPrice: number;
  onChange: (row: Row) => void;
  onRemove: () => void;
}) {
  const validityId = useId();
  const at = (field: string) => errors[`packages.${index}.${field}`];
  const rowError = errors[`packages.${index}`];
  const validityError = at('validityMonths');
  return (
    <li>
      <fieldset className="rounded-xl border border-line p-4">
        <legend className="px-1 text-sm font-bold text-ink">Package {index + 1}</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            label="Sessions"
            type="number"
            inputMode="numeric"
            min={PACKAGE_RULES.minSessions}
            max={PACKAGE_RULES.maxSessions}
            step={1}
            value={row.sessions}
            error={at('sessions')}
            hint={`${PACKAGE_RULES.minSessions} to ${PACKAGE_RULES.maxSessions}`}
            onChange={(event) => onChange({ ...row, sessions: event.target.value })}
          />
          <TextField
            label="Total price"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            prefix="$"
            value={row.price}
            error={at('price')}
            hint="In whole dollars"
            onChange={(event) => onChange({ ...row, price: event.target.value })}
          />
          <div>
            <label htmlFor={validityId} className="mb-1.5 block text-sm font-semibold text-ink">
              Valid for
            </label>
            <select
              id={validityId}
              value={row.validity}
              aria-invalid={validityError ? true : undefined}
              aria-describedby={validityError ? `${validityId}-error` : undefined}
              onChange={(event) => onChange({ ...row, validity: event.target.value })}
              className={cn(inputClasses, validityError ? 'border-danger' : 'border-line-strong hover:border-muted')}
            >
              {MONTHS.map((months) => (
                <option key={months} value={String(months)}>
                  {months === 1 ? '1 month' : `${months} months`}
                </option>
              ))}
              <option value="">No end date</option>
            </select>
            <FieldError id={`${validityId}-error`}>{validityError}</FieldError>
          </div>
        </div>
        <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
          <div aria-live="polite">
            <RowSummary row={row} sessionPrice={sessionPrice} />
          </div>
          <Button variant="ghost" onClick={onRemove} aria-label={`Remove package ${index + 1}`}>
            <Trash2 className="size-4" aria-hidden="true" />
            Remove
          </Button>
        </div>
        {rowError && <FieldError>{rowError}</FieldError>}
      </fieldset>
    </li>
  );
}

function PackagesForm({
  trainerId,
  sessionPrice,
  packages,
}: {
  trainerId: string;
  sessionPrice: number;
  packages: TTrainerPackage[];
}) {
  const save = useSavePackages(trainerId);
  const [rows, setRows] = useState<Row[]>(() => packages.map(rowOf));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  // a refusal puts the focus on the first field it names, so a keyboard or screen-reader user lands on it
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const change = (next: Row[]) => {
    setRows(next);
    setSaved(null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setSaved(null);
    const { request, errors: found } = check(rows, sessionPrice);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFailure(found.packages ?? 'Please check the highlighted packages.');
      return;
    }
    save.mutate(request, {
      onSuccess: (answer) => {
        notify.success(answer.message);
        setSaved(answer.message);
        setRows(answer.packages.map(rowOf));
      },
      onError: (error) => {
        // the server's message always, and its field messages beside their rows
        setErrors(error instanceof ApiError && error.errors ? error.errors : {});
        setFailure(errorMessage(error));
      },
    });
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Packages">
      {rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line-strong p-4 text-sm text-muted">
          You sell no packages yet. A package is a number of sessions for one total, below your price of{' '}
          {formatMoney(sessionPrice)} a session.
        </p>
      ) : (
        <ul className="space-y-4">
          {rows.map((row, index) => (
            <PackageRow
              key={row.key}
              row={row}
              index={index}
              errors={errors}
              sessionPrice={sessionPrice}
              onChange={(next) => change(rows.map((r) => (r.key === row.key ? next : r)))}
              onRemove={() => {
                change(rows.filter((r) => r.key !== row.key));
                setErrors({});
              }}
            />
          ))}
        </ul>
      )}
      {rows.length < PACKAGE_RULES.maxPackages ? (
        <Button variant="outline" onClick={() => change([...rows, rowOf()])}>
          <Plus className="size-4" aria-hidden="true" />
          Add a package
        </Button>
      ) : (
        <p className="text-sm text-muted">{PACKAGE_MSG.tooMany}.</p>
      )}
      <FormError message={failure} />
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" isLoading={save.isPending}>
          Save packages
        </Button>
        <SavedNote message={saved} />
      </div>
    </form>
  );
}

function PackagesBody({ trainerId, sessionPrice }: { trainerId: string; sessionPrice: number }) {
  // a trainer's packages are read from their public profile; one not listed yet has none
  const profile = useTrainer(trainerId);
  const isUnlisted = profile.error instanceof ApiError && profile.error.status === 404;
  if (profile.isPending) {
    return (
      <div aria-busy="true">
        <span role="status" className="sr-only">
          Loading your packages…
        </span>
        <Skeleton className="h-32 w-full rounded-xl" />
      </div>
    );
  }
  if (profile.isError && !isUnlisted) {
    return (
      <Alert
        tone="error"
        title="Could not load your packages"
        action={
          <Button variant="outline" onClick={() => void profile.refetch()} isLoading={profile.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(profile.error)}
      </Alert>
    );
  }
  if (sessionPrice <= 0) {
    return (
      <Alert tone="warning" title="No price yet" isLive={false}>
        {PACKAGE_MSG.setPriceFirst}.
      </Alert>
    );
  }
  return <PackagesForm trainerId={trainerId} sessionPrice={sessionPrice} packages={profile.data?.packages ?? []} />;
}

/** A trainer's packages (docs/product.md#packages): up to 3, each sessions for a total below their price one by one. */
export function PackagesSection({ trainerId, sessionPrice }: { trainerId: string; sessionPrice: number }) {
  return (
    <SettingsSection
      id="packages"
      title="Packages"
      description={
        <>
          Sell up to {PACKAGE_RULES.maxPackages} packages of sessions at a lower price each. A client pays the total once and
          books each session from it; a session cancelled more than 24 hours ahead goes back to their package, and they can have
          the unused rest refunded at any time. Prices you change later do not change packages already bought.
        </>
      }
    >
      <PackagesBody trainerId={trainerId} sessionPrice={sessionPrice} />
    </SettingsSection>
  );
}
