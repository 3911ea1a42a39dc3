import { CircleCheck } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  cancellationPolicy,
  formatDateTimeIn,
  PACKAGE_MSG,
  zoneCity,
  type TBalance,
  type TBooking,
  type TSeriesResponse,
  type TTrainerPackage,
} from '@spotter/shared';
import { useNeedsConnection } from '@/components/needs-connection';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { ApiError, errorMessage } from '@/lib/api-client';
import {
  cancelBooking,
  useBookings,
  useCreateBooking,
  useCreateSeries,
  useHoldSeries,
  useRefreshBookings,
  useSlots,
} from '@/lib/api/bookings';
import { isUsable, useBalanceWith } from '@/lib/api/packages';
import { cn } from '@/lib/cn';
import { formatPrice, plural } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';
import { paidText, type CheckoutStop } from '../utils/payment-outcome';
import { googleCalendarUrl, icsHref, placeOf, policyText } from '../utils/session-words';
import { Checkout } from './checkout';
import { leftOutOf, SeriesCheckout, sortedWeeks, totalOf, WeekLists, type LeftOutWeek } from './series-checkout';
import { SlotPicker } from './slot-picker';
import { PackageCheckoutOnDemand, PackageList, usePackageBought } from './trainer-packages';
import { SERIES_WEEKS, WeeksChoice, type Weeks } from './weeks-choice';
import { useZoneChoice, ZoneSwitch } from './zone-switch';

const PushPrompt = lazy(() => import('@/components/push-notifications').then((m) => ({ default: m.PushPrompt })));

type Step =
  | { kind: 'pick' }
  | { kind: 'buy'; pkg: TTrainerPackage }
  | { kind: 'choose'; startsAt: string }
  | { kind: 'pay'; booking: TBooking }
  | { kind: 'stopped'; booking: TBooking; stop: CheckoutStop }
  /** `captureId` null: paid from the package balance. */
  | { kind: 'done'; booking: TBooking; captureId: string | null }
  /** The free weeks of a standing weekly series held, to be paid together by card. */
  | { kind: 'series-pay'; series: TSeriesResponse }
  | { kind: 'series-stopped'; series: TSeriesResponse; stop: CheckoutStop }
  /**
   * A standing weekly series booked: `captureId` null when paid from the package balance. `leftOut`: the weeks not
   * booked, with why.
   */
  | { kind: 'series'; bookings: TBooking[]; leftOut: LeftOutWeek[]; captureId: string | null };

/** What booking every week does, as the weekly choice of the card says it (docs/product.md#standing-weekly-sessions). */
const CARD_WEEKS_HINT =
  'Every week at this weekday and time, each a session of its own. The free weeks are held for you and weeks that are not free are left out; you see them and the total before you pay.';

/**
 * The series lengths worth offering for the sessions a balance has left: 4 weeks once it pays for two,
 * and each longer one only when it books more than the shorter one would. The server decides which weeks are booked.
 */
const weeksFor = (sessionsLeft: number) =>
  SERIES_WEEKS.filter((weeks, i) => sessionsLeft >= 2 && (i === 0 || sessionsLeft > SERIES_WEEKS[i - 1]));

type BookingFlowProps = {
  trainer: { _id: string; firstName: string; lastName: string; price: number; packages?: TTrainerPackage[] };
  onClose: () => void;
  /** Opens the conversation with the trainer (offered when there is no free time). */
  onMessage?: () => void;
};

/**
 * The person's own unpaid hold with this trainer that has not lapsed, if any, and when it is a week of a weekly series,
 * the series' weeks still held (paid together, never one alone).
 */
function useOwnHold(trainerId: string) {
  const { token, role } = useSession();
  const bookings = useBookings(token, { enabled: role === 'user' });
  const now = Date.now();
  const held = (bookings.data ?? []).filter(
    (b) => b.trainerId === trainerId && b.status === 'pending' && b.holdExpiresAt !== null && Date.parse(b.holdExpiresAt) > now,
  );
  const hold = held[0] ?? null;
  const weeks = hold?.seriesId ? sortedWeeks(held.filter((b) => b.seriesId === hold.seriesId)) : [];
  return { hold: weeks[0] ?? hold, weeks };
}

function Confirmation({
  booking,
  trainerName,
  captureId,
  timeZone,
  onClose,
}: {
  booking: TBooking;
  trainerName: string;
  captureId: string | null;
  timeZone: string;
  onClose: () => void;
}) {
  const when = formatDateTimeIn(booking.startsAt, timeZone);
  const place = placeOf(booking.location, { showLink: true });
  return (
    <div className="space-y-4">
      <div
        role="status"
        className="flex items-start gap-3 rounded-xl border border-success-line bg-success-soft p-4 text-success"
      >
        <CircleCheck className="mt-0.5 size-6 shrink-0" aria-hidden="true" />
        <div className="min-w-0">
          <p className="font-display text-lg font-bold">You are booked!</p>
          <p className="font-medium">
            {captureId === null
              ? `${PACKAGE_MSG.bookedFromBalance}: ${when}`
              : paidText({ price: formatPrice(booking.price), trainerName, when })}{' '}
            ({zoneCity(timeZone)} time).
          </p>
          {place && (
            <p className="mt-1 break-words">
              Where:{' '}
              {place.href ? (
                <a href={place.href} target="_blank" rel="noreferrer" className="font-semibold underline underline-offset-4">
                  {place.text}
                </a>
              ) : (
                place.text
              )}
            </p>
          )}
          <p data-testid="policy" className="mt-1 font-semibold">
            {policyText(booking, timeZone)}
          </p>
          {captureId !== null && <p className="mt-1 text-sm">Payment reference: {captureId}</p>}
        </div>
      </div>
      <p className="text-sm text-muted">It is on your profile with your other sessions.</p>
      <Suspense fallback={null}>
        <PushPrompt question={`Get a notification before your session with ${trainerName}?`} />
      </Suspense>
      <p className="flex flex-wrap gap-x-4 text-sm">
        <a
          href={googleCalendarUrl(booking)}
          target="_blank"
          rel="noreferrer"
          className="inline-flex min-h-11 items-center font-semibold text-ink underline underline-offset-4"
        >
          Add to Google Calendar
        </a>
        <a
          href={icsHref(booking)}
          download="session.ics"
          className="inline-flex min-h-11 items-center font-semibold text-ink underline underline-offset-4"
        >
          Download .ics
        </a>
      </p>
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" onClick={onClose} className={buttonClasses({ variant: 'outline' })}>
          Close
        </button>
        <Link to={paths.profile.user.getHref()} className={buttonClasses()}>
          See my sessions
        </Link>
      </div>
    </div>
  );
}

/**
 * A standing weekly series booked: the sessions' dates, and the weeks left out with why. Paid from the package
 * (`captureId` null) a week cancelled in time goes back to the package; paid by card it is refunded to the card.
 */
function SeriesConfirmation({
  bookings,
  leftOut,
  captureId,
  trainerName,
  timeZone,
  onClose,
}: {
  bookings: TBooking[];
  leftOut: LeftOutWeek[];
  captureId: string | null;
  trainerName: string;
  timeZone: string;
  onClose: () => void;
}) {
  const sessions = plural(bookings.length, 'weekly session', 'weekly sessions');
  const city = zoneCity(timeZone);
  return (
    <div className="space-y-4">
      <div
        role="status"
        className="flex items-start gap-3 rounded-xl border border-success-line bg-success-soft p-4 text-success"
      >
        <CircleCheck className="mt-0.5 size-6 shrink-0" aria-hidden="true" />
        <div className="min-w-0">
          <p className="font-display text-lg font-bold">You are booked every week!</p>
          <p className="font-medium">
            {captureId === null
              ? `${PACKAGE_MSG.bookedFromBalance}: ${sessions}`
              : `Paid ${formatPrice(totalOf(bookings))} to ${trainerName} for ${sessions}`}{' '}
            ({city} time).
          </p>
          {captureId !== null && <p className="mt-1 text-sm">Payment reference: {captureId}</p>}
        </div>
      </div>
      <WeekLists weeks={bookings} leftOut={leftOut} timeZone={timeZone} weeksTitle="Booked" leftOutTitle="Not booked" />
      <p className="text-sm text-muted">
        {captureId === null
          ? 'Each is a session of its own on your profile: cancelled more than 24 hours ahead, it goes back to your package.'
          : 'Each is a session of its own on your profile: cancelled more than 24 hours ahead, its price is refunded to your card or PayPal.'}
      </p>
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" onClick={onClose} className={buttonClasses({ variant: 'outline' })}>
          Close
        </button>
        <Link to={paths.profile.user.getHref()} className={buttonClasses()}>
          See my sessions
        </Link>
      </div>
    </div>
  );
}

/**
 * The checkout ended without a booking: the server's message, and no way to pay again from here as if
 * nothing happened. After a refunded mismatch a fresh hold may be tried; after an unknown outcome the
 * server is finding out (and e-mails), so there is only Close.
 */
function Stopped({ stop, onClose, onChooseAgain }: { stop: CheckoutStop; onClose: () => void; onChooseAgain: () => void }) {
  // The pay button is gone: the message takes focus, so a screen reader reads it and Tab reaches Close.
  const messageRef = useRef<HTMLDivElement>(null);
  useEffect(() => messageRef.current?.focus(), []);
  const isUnknown = stop.kind === 'unknown';
  return (
    <div className="space-y-4">
      <div ref={messageRef} tabIndex={-1} className="focus:outline-none">
        <Alert tone={isUnknown ? 'warning' : 'error'} title={isUnknown ? 'Payment not confirmed yet' : 'Not booked'}>
          {stop.message}
        </Alert>
      </div>
      <div className="flex flex-wrap justify-end gap-3">
        {!isUnknown && (
          <button type="button" onClick={onChooseAgain} className={buttonClasses({ variant: 'outline' })}>
            Choose a time
          </button>
        )}
        <button type="button" onClick={onClose} className={buttonClasses({ variant: isUnknown ? 'primary' : 'outline' })}>
          Close
        </button>
      </div>
    </div>
  );
}

/**
 * The step after choosing a slot when the user has a package balance with the trainer: paying from it
 * first (booked and confirmed at once, no hold), or the usual payment (a hold, then the checkout). Either
 * way the person may book every week (docs/product.md#standing-weekly-sessions).
 */
function PayChoice({
  trainer,
  startsAt,
  balance,
  timeZone,
  onBooked,
  onSeries,
  onHeld,
  onSeriesHeld,
  onChooseAnother,
}: {
  trainer: BookingFlowProps['trainer'];
  startsAt: string;
  /** Null once it can no longer pay (used up, expired, refunded meanwhile): only the usual payment is left. */
  balance: TBalance | null;
  timeZone: string;
  onBooked: (booking: TBooking) => void;
  onSeries: (series: TSeriesResponse) => void;
  onHeld: (booking: TBooking) => void;
  onSeriesHeld: (series: TSeriesResponse) => void;
  onChooseAnother: () => void;
}) {
  const book = useCreateBooking();
  const bookSeries = useCreateSeries();
  const holdSeries = useHoldSeries();
  const refresh = useRefreshBookings();
  const [way, setWay] = useState<'balance' | 'pay' | null>(null);
  /** null: just this session. */
  const [weeks, setWeeks] = useState<Weeks | null>(null);
  const [cardWeeks, setCardWeeks] = useState<Weeks | null>(null);
  const weekChoices = balance ? weeksFor(balance.sessionsLeft) : [];
  // a reloaded balance with fewer sessions may take the chosen length away
  const chosenWeeks = weeks !== null && weekChoices.includes(weeks) ? weeks : null;
  const isBusy = book.isPending || bookSeries.isPending || holdSeries.isPending;
  const connection = useNeedsConnection();
  const [failure, setFailure] = useState<string | null>(null);
  const [isTaken, setIsTaken] = useState(false);
  const headingRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const policy = cancellationPolicy({ startsAt, now: new Date(), timeZone });

  const onRefused = (error: Error) => {
    // the slot was just taken, or the balance cannot pay (used up, expired): the server says which
    if (error instanceof ApiError && error.status === 409) {
      setIsTaken(true);
      // the slots and the balance on screen are stale: a balance that cannot pay leaves only the usual payment
      void refresh(trainer._id);
    }
    setFailure(errorMessage(error));
  };

  const go = (chosen: 'balance' | 'pay') => {
    setWay(chosen);
    setFailure(null);
    if (chosen === 'balance' && chosenWeeks !== null) {
      bookSeries.mutate({ trainerId: trainer._id, startsAt, weeks: chosenWeeks }, { onSuccess: onSeries, onError: onRefused });
      return;
    }
    if (chosen === 'pay' && cardWeeks !== null) {
      holdSeries.mutate({ trainerId: trainer._id, startsAt, weeks: cardWeeks }, { onSuccess: onSeriesHeld, onError: onRefused });
      return;
    }
    book.mutate(
      { trainerId: trainer._id, startsAt, ...(chosen === 'balance' ? { payWith: 'balance' as const } : {}) },
      {
        onSuccess: chosen === 'balance' ? onBooked : onHeld,
        onError: onRefused,
      },
    );
  };

  const balanceButton = balance && (
    <Button
      size="lg"
      className="py-2"
      onClick={() => go('balance')}
      isLoading={isBusy && way === 'balance'}
      disabled={isBusy || !connection.isOnline}
      {...connection.buttonProps}
    >
      {/* the label is long for a phone: it wraps inside the button */}
      <span className="text-center whitespace-normal">
        {chosenWeeks !== null
          ? `Book ${chosenWeeks} weeks with your package (${plural(balance.sessionsLeft, 'session', 'sessions')} left)`
          : `Pay with your package (${plural(balance.sessionsLeft, 'session', 'sessions')} left)`}
      </span>
    </Button>
  );
  const cardButton = (
    <Button
      variant={balance ? 'outline' : 'primary'}
      size="lg"
      className="py-2"
      onClick={() => go('pay')}
      isLoading={isBusy && way === 'pay'}
      disabled={isBusy || !connection.isOnline}
      {...connection.buttonProps}
    >
      <span className="text-center whitespace-normal">
        {cardWeeks !== null
          ? `Hold ${cardWeeks} weeks, then pay by card or PayPal`
          : `Pay ${formatPrice(trainer.price)} by card or PayPal`}
      </span>
    </Button>
  );

  return (
    <div className="space-y-4">
      <div>
        <p ref={headingRef} tabIndex={-1} className="font-semibold text-ink focus:outline-none">
          How do you want to pay?
        </p>
        <p className="text-sm text-muted">
          {formatDateTimeIn(startsAt, timeZone)} ({zoneCity(timeZone)} time)
        </p>
        <p data-testid="policy" className={cn('text-sm font-semibold', policy.refundable ? 'text-success' : 'text-warning-ink')}>
          {policy.text}
        </p>
      </div>
      {balance && (
        <div className="space-y-3">
          <p className="text-sm text-muted">
            Your package pays {formatMoney(balance.perSession)} of the {formatMoney(balance.amount)} left in it, and nothing more
            is charged; cancelled in time, the session goes back to your package.
          </p>
          {weekChoices.length > 0 && (
            <WeeksChoice
              legend="With your package, book"
              name="series-weeks"
              choices={weekChoices}
              value={chosenWeeks}
              onChange={setWeeks}
              disabled={isBusy}
              hint="Every week at this weekday and time, each session paid from your package; weeks that are not free are left out."
            />
          )}
          {balanceButton}
        </div>
      )}
      <div className={cn('space-y-3', balance && 'border-t border-line pt-4')}>
        <WeeksChoice
          legend="By card or PayPal, book"
          name="card-series-weeks"
          choices={SERIES_WEEKS}
          value={cardWeeks}
          onChange={setCardWeeks}
          disabled={isBusy}
          hint={CARD_WEEKS_HINT}
        />
        {cardButton}
      </div>
      {connection.note}
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="flex flex-col gap-3">
        <Button variant={isTaken ? 'primary' : 'ghost'} onClick={onChooseAnother}>
          Choose another time
        </Button>
      </div>
    </div>
  );
}

/** The bookings a step holds unpaid for the person, released when they leave it. */
function heldBy(step: Step): string[] {
  if (step.kind === 'pay' || (step.kind === 'stopped' && step.stop.kind === 'mismatch')) return [step.booking._id];
  if (step.kind === 'series-pay' || (step.kind === 'series-stopped' && step.stop.kind === 'mismatch'))
    return step.series.bookings.map((booking) => booking._id);
  return [];
}

/** Pick a slot (and maybe every week), pay for the held booking or weeks (or from the package balance), see it confirmed. */
export function BookingFlow({ trainer, onClose, onMessage }: BookingFlowProps) {
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const refresh = useRefreshBookings();
  const slots = useSlots(trainer._id);
  const own = useOwnHold(trainer._id);
  const { token, role } = useSession();
  const balance = useBalanceWith(trainer._id, token, { enabled: role === 'user' });
  const usable = balance && isUsable(balance) ? balance : null;
  const bought = usePackageBought(trainer);
  const zones = useZoneChoice();
  const trainerName = `${trainer.firstName} ${trainer.lastName}`;
  const stepZone =
    'booking' in step
      ? step.booking.timeZone
      : 'series' in step
        ? step.series.bookings[0]?.timeZone
        : 'bookings' in step
          ? step.bookings[0]?.timeZone
          : undefined;
  const trainerZone = stepZone ?? slots.data?.timeZone ?? zones.browser;
  const timeZone = zones.zoneOf(trainerZone);

  // A hold left unpaid (dialog closed, another time chosen) is released at once, so the slot is free for others;
  // not one whose payment may have gone through (an unknown outcome): the server settles that one.
  const heldRef = useRef<string[]>([]);
  heldRef.current = heldBy(step);
  useEffect(
    () => () => {
      for (const id of heldRef.current) void cancelBooking(id).catch(() => undefined);
    },
    [],
  );

  const releaseAndPick = (ids: string[]) => {
    void Promise.all(ids.map((id) => cancelBooking(id).catch(() => undefined))).then(() => refresh(trainer._id));
    heldRef.current = [];
    setStep({ kind: 'pick' });
  };

  const onSeriesHeld = (series: TSeriesResponse) => setStep({ kind: 'series-pay', series });

  if (step.kind === 'pick') {
    return (
      <div className="flex min-h-0 flex-col gap-4">
        <PackageList trainer={trainer} onBuy={(pkg) => setStep({ kind: 'buy', pkg })} isCompact />
        <SlotPicker
          trainer={trainer}
          timeZone={timeZone}
          hold={own.hold}
          heldWeeks={own.weeks.length}
          onMessage={onMessage}
          zoneSwitch={<ZoneSwitch trainerZones={[trainerZone]} choice={zones.choice} onChoose={zones.setChoice} />}
          onHeld={(booking) =>
            // a week of a series is paid with the series, never alone (the server refuses it)
            booking.seriesId && own.weeks.length > 0
              ? onSeriesHeld({ seriesId: booking.seriesId, bookings: own.weeks, unavailable: [] })
              : setStep({ kind: 'pay', booking })
          }
          onSeriesHeld={onSeriesHeld}
          onChosen={usable ? (startsAt) => setStep({ kind: 'choose', startsAt }) : undefined}
        />
      </div>
    );
  }

  if (step.kind === 'buy') {
    return (
      <PackageCheckoutOnDemand
        trainer={trainer}
        pkg={step.pkg}
        onBought={() => {
          bought();
          setStep({ kind: 'pick' });
        }}
        onBack={() => setStep({ kind: 'pick' })}
      />
    );
  }

  if (step.kind === 'choose') {
    return (
      <PayChoice
        trainer={trainer}
        startsAt={step.startsAt}
        balance={usable}
        timeZone={timeZone}
        onBooked={(booking) => {
          notify.success(`${PACKAGE_MSG.bookedFromBalance}: ${formatDateTimeIn(booking.startsAt, timeZone)}`);
          setStep({ kind: 'done', booking, captureId: null });
          void refresh(trainer._id);
        }}
        onSeries={(series) => {
          notify.success(
            `${PACKAGE_MSG.bookedFromBalance}: ${plural(series.bookings.length, 'weekly session', 'weekly sessions')}`,
          );
          setStep({ kind: 'series', bookings: series.bookings, leftOut: leftOutOf(series.unavailable), captureId: null });
        }}
        onHeld={(booking) => setStep({ kind: 'pay', booking })}
        onSeriesHeld={onSeriesHeld}
        onChooseAnother={() => {
          void refresh(trainer._id);
          setStep({ kind: 'pick' });
        }}
      />
    );
  }

  if (step.kind === 'pay') {
    return (
      <Checkout
        booking={step.booking}
        trainerName={trainerName}
        timeZone={timeZone}
        onPaid={(captureId, booking) => {
          heldRef.current = [];
          const paid = booking ?? { ...step.booking, status: 'confirmed' as const };
          notify.success(
            paidText({ price: formatPrice(paid.price), trainerName, when: formatDateTimeIn(paid.startsAt, timeZone) }),
          );
          setStep({ kind: 'done', booking: paid, captureId });
          void refresh(trainer._id);
        }}
        onStopped={(stop) => {
          setStep({ kind: 'stopped', booking: step.booking, stop });
          void refresh(trainer._id);
        }}
        onChooseAnother={() => releaseAndPick([step.booking._id])}
      />
    );
  }

  if (step.kind === 'series-pay') {
    const { series } = step;
    return (
      <SeriesCheckout
        series={series}
        trainerName={trainerName}
        timeZone={timeZone}
        onPaid={(captureId, answer) => {
          heldRef.current = [];
          const held = new Set(series.bookings.map((booking) => booking._id));
          // the weeks the capture confirmed; a week whose hold ran out meanwhile is not among them, and its part is refunded
          const paid = (answer ?? series.bookings.map((booking) => ({ ...booking, status: 'confirmed' as const }))).filter(
            (booking) => held.has(booking._id) && booking.status === 'confirmed',
          );
          const paidIds = new Set(paid.map((booking) => booking._id));
          const lapsed = series.bookings
            .filter((booking) => !paidIds.has(booking._id))
            .map((booking) => ({ startsAt: booking.startsAt, why: 'The hold ran out before the payment: its part is refunded' }));
          notify.success(
            `Paid ${formatPrice(totalOf(paid))} to ${trainerName} for ${plural(paid.length, 'weekly session', 'weekly sessions')}`,
          );
          setStep({ kind: 'series', bookings: paid, leftOut: [...leftOutOf(series.unavailable), ...lapsed], captureId });
          void refresh(trainer._id);
        }}
        onStopped={(stop) => {
          setStep({ kind: 'series-stopped', series, stop });
          void refresh(trainer._id);
        }}
        onChooseAnother={() => releaseAndPick(series.bookings.map((booking) => booking._id))}
      />
    );
  }

  if (step.kind === 'stopped') {
    return <Stopped stop={step.stop} onClose={onClose} onChooseAgain={() => releaseAndPick([step.booking._id])} />;
  }

  if (step.kind === 'series-stopped') {
    return (
      <Stopped
        stop={step.stop}
        onClose={onClose}
        onChooseAgain={() => releaseAndPick(step.series.bookings.map((booking) => booking._id))}
      />
    );
  }

  if (step.kind === 'series') {
    return (
      <SeriesConfirmation
        bookings={step.bookings}
        leftOut={step.leftOut}
        captureId={step.captureId}
        trainerName={trainerName}
        timeZone={timeZone}
        onClose={onClose}
      />
    );
  }

  return (
    <Confirmation
      booking={step.booking}
      trainerName={trainerName}
      captureId={step.captureId}
      timeZone={timeZone}
      onClose={onClose}
    />
  );
}
