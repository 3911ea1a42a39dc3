import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BellRing } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { PUSH_KIND_LABELS, pushKindsFor, type PushKind } from '@spotter/shared';
import { errorMessage } from '@/lib/api-client';
import { pushKeys } from '@/lib/api/push';
import { cn } from '@/lib/cn';
import { paths, type Role } from '@/lib/paths';
import {
  deviceKinds,
  isPushPromptSnoozed,
  snoozePushPrompt,
  subscribeThisDevice,
  unsubscribeThisDevice,
  usePushConfig,
  usePushEnv,
  type PushEnv,
} from '@/lib/push';
import { useSession } from '@/lib/session';
import { Alert } from './ui/alert';
import { Button } from './ui/button';

/*
 * Web Push on this device (docs/product.md#notifications): the settings section and the offer after an
 * action. One module, loaded lazily where used, so the landing page never carries it.
 */

const deviceKey = () => [...pushKeys.subscriptions(), 'this-device'] as const;

/** The kinds this device gets (null: none), once the browser may show notifications. */
function useDeviceKinds(env: PushEnv, isAllowed: boolean) {
  return useQuery({
    queryKey: deviceKey(),
    queryFn: ({ signal }) => deviceKinds(env, signal),
    enabled: isAllowed,
  });
}

function Switch({
  label,
  isOn,
  isDisabled,
  onChange,
}: {
  label: string;
  isOn: boolean;
  isDisabled: boolean;
  onChange: (isOn: boolean) => void;
}) {
  const id = useId();
  return (
    <li className="flex min-h-11 items-center justify-between gap-3 border-b border-line py-2 last:border-b-0">
      <label htmlFor={id} className="min-w-0 flex-1 text-sm font-medium text-ink">
        {label}
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={isOn}
        aria-checked={isOn}
        disabled={isDisabled}
        onChange={(event) => onChange(event.target.checked)}
        className={cn(
          'relative h-7 w-12 shrink-0 cursor-pointer appearance-none rounded-full bg-line-strong transition-colors',
          'before:absolute before:top-1 before:left-1 before:size-5 before:rounded-full before:bg-canvas before:transition-transform',
          'checked:bg-ink checked:before:translate-x-5 disabled:cursor-not-allowed disabled:opacity-60',
          'focus-visible:outline-2 focus-visible:outline-offset-2',
        )}
      />
    </li>
  );
}

function DeviceSwitches({ env, role, publicKey }: { env: PushEnv; role: Role; publicKey: string }) {
  const queryClient = useQueryClient();
  const [permission, setPermission] = useState(() => env.permission());
  const device = useDeviceKinds(env, permission === 'granted');
  const [isSaving, setIsSaving] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  if (!env.isSupported) {
    return (
      <Alert tone="info" isLive={false}>
        This browser cannot show notifications from Spotter. On an iPhone or iPad, add Spotter to your Home Screen (Share, then
        Add to Home Screen) and open it from there; elsewhere, use a recent Chrome, Edge, Firefox or Safari.
      </Alert>
    );
  }
  if (permission === 'denied') {
    return (
      <Alert tone="warning" title="Notifications are blocked in this browser" isLive={false}>
        To allow them, select the lock or site settings icon next to the address, set Notifications to Allow, then reload this
        page. On a phone, allow them in the browser’s site settings (or the system’s settings for an installed app).
      </Alert>
    );
  }
  if (permission === 'granted' && device.isPending) {
    return (
      <p role="status" className="text-sm text-muted">
        Loading…
      </p>
    );
  }
  if (device.isError) {
    return (
      <Alert
        tone="error"
        action={
          <Button variant="outline" onClick={() => void device.refetch()}>
            Retry
          </Button>
        }
      >
        {errorMessage(device.error)}
      </Alert>
    );
  }

  const kinds = device.data ?? null;
  const save = async (next: PushKind[]) => {
    setIsSaving(true);
    setResult(null);
    try {
      if (next.length === 0) {
        await unsubscribeThisDevice(env);
        queryClient.setQueryData(deviceKey(), null);
        setResult({ tone: 'success', text: 'Saved: this device gets no notifications.' });
        return;
      }
      let allowed = env.permission();
      if (allowed === 'default') allowed = await env.requestPermission();
      setPermission(allowed);
      if (allowed !== 'granted') return;
      const stored = await subscribeThisDevice(env, publicKey, next);
      queryClient.setQueryData(deviceKey(), stored.kinds);
      setResult({ tone: 'success', text: 'Saved for this device.' });
    } catch (error) {
      setResult({ tone: 'error', text: errorMessage(error) });
    } finally {
      setIsSaving(false);
    }
  };

  const available = pushKindsFor(role);
  return (
    <div className="space-y-4" aria-busy={isSaving}>
      <p className="text-sm text-ink">
        {kinds
          ? 'This device gets the notifications switched on below.'
          : 'This device gets no notifications. Switch one on and your browser asks whether Spotter may show them.'}
      </p>
      <ul aria-label="Notifications on this device" className="rounded-xl border border-line px-4">
        {available.map((kind) => (
          <Switch
            key={kind}
            label={PUSH_KIND_LABELS[kind]}
            isOn={kinds?.includes(kind) ?? false}
            isDisabled={isSaving}
            onChange={(isOn) => {
              const current = kinds ?? [];
              void save(isOn ? available.filter((k) => k === kind || current.includes(k)) : current.filter((k) => k !== kind));
            }}
          />
        ))}
      </ul>
      {kinds && (
        <Button variant="outline" className="max-sm:w-full" disabled={isSaving} onClick={() => void save([])}>
          Turn off on this device
        </Button>
      )}
      {result && (
        <Alert tone={result.tone} className="break-words">
          {result.text}
        </Alert>
      )}
    </div>
  );
}

/**
 * Settings, 'Notifications on this device' (docs/product.md#notifications): the push notifications this
 * browser gets, a switch per kind, stored on the server for this device only. Hidden when the server
 * sends none. E-mails are the section above's.
 */
export function DeviceNotificationsSection({ role }: { role: Role }) {
  const env = usePushEnv();
  const config = usePushConfig(env);
  if (config.isSuccess && !config.data.publicKey) return null;
  let body;
  if (config.isPending) {
    body = (
      <p role="status" className="text-sm text-muted">
        Loading…
      </p>
    );
  } else if (config.isError) {
    body = (
      <Alert
        tone="error"
        action={
          <Button variant="outline" onClick={() => void config.refetch()}>
            Retry
          </Button>
        }
      >
        {errorMessage(config.error)}
      </Alert>
    );
  } else {
    body = <DeviceSwitches env={env} role={role} publicKey={config.data.publicKey ?? ''} />;
  }
  return (
    <section
      id="push-notifications"
      aria-labelledby="push-notifications-heading"
      className="scroll-mt-24 rounded-card border border-line bg-canvas p-5 shadow-card sm:p-6"
    >
      <h2 id="push-notifications-heading" className="font-display text-xl font-bold text-ink">
        Notifications on this device
      </h2>
      <p className="mt-1 text-sm text-muted">
        What this browser shows you, even when Spotter is closed. Each device has its own; e-mails still come as chosen under{' '}
        <a href="#notifications" className="font-semibold underline underline-offset-4">
          Notifications
        </a>
        .
      </p>
      <div className="mt-5">{body}</div>
    </section>
  );
}

type Phase = 'ask' | 'busy' | 'on' | 'later' | 'blocked' | 'error';

/**
 * The offer to turn notifications on, shown right after an action that explains it (a first message
 * sent, a session booked), never on page load (docs/product.md#notifications). Shown only where the
 * browser can, the server sends them, and the person has not answered the browser yet nor said
 * 'Not now' in the last 30 days.
 */
export function PushPrompt({ question, className }: { question: string; className?: string }) {
  const env = usePushEnv();
  const { role } = useSession();
  // decided once, when the card would first show: answering it must not make it vanish unsaid
  const [isOffered] = useState(() => env.isSupported && env.permission() === 'default' && !isPushPromptSnoozed(env));
  const config = usePushConfig(env, isOffered);
  const [phase, setPhase] = useState<Phase>('ask');
  const [error, setError] = useState('');
  const questionId = useId();
  const answered = useRef<HTMLParagraphElement>(null);
  const isAnswered = phase === 'on' || phase === 'later' || phase === 'blocked';
  // the buttons are gone: the focus goes to what the answer did, not to the page's start
  useEffect(() => {
    if (isAnswered) answered.current?.focus();
  }, [isAnswered]);
  const publicKey = config.data?.publicKey;
  if (!isOffered || !publicKey) return null;

  const turnOn = async () => {
    setPhase('busy');
    try {
      const permission = await env.requestPermission();
      if (permission === 'granted') {
        await subscribeThisDevice(env, publicKey);
        setPhase('on');
      } else if (permission === 'denied') {
        setPhase('blocked');
      } else {
        snoozePushPrompt(env);
        setPhase('later');
      }
    } catch (e) {
      setError(errorMessage(e));
      setPhase('error');
    }
  };

  const settings = (
    <Link to={paths.settings[role ?? 'user'].getHref() + '#notifications'} className="font-semibold underline underline-offset-4">
      Settings
    </Link>
  );
  const box = cn('rounded-xl border border-line bg-surface p-3 text-sm text-ink', className);

  if (isAnswered) {
    return (
      <p ref={answered} tabIndex={-1} role="status" className={box}>
        {phase === 'on' && <>Notifications are on for this device. Choose which ones in {settings}.</>}
        {phase === 'later' && <>You can turn notifications on any time in {settings}.</>}
        {phase === 'blocked' && (
          <>Notifications are blocked in this browser. To allow them, open the site settings next to the address bar.</>
        )}
      </p>
    );
  }

  return (
    <div role="group" aria-labelledby={questionId} className={cn(box, 'flex flex-wrap items-center gap-x-3 gap-y-2')}>
      <BellRing className="size-5 shrink-0" aria-hidden="true" />
      <p id={questionId} className="min-w-0 flex-1 font-medium">
        {question}
      </p>
      <div className="flex gap-2">
        <Button className="px-4" onClick={() => void turnOn()} isLoading={phase === 'busy'}>
          Turn on
        </Button>
        <Button
          variant="ghost"
          className="px-4"
          disabled={phase === 'busy'}
          onClick={() => {
            snoozePushPrompt(env);
            setPhase('later');
          }}
        >
          Not now
        </Button>
      </div>
      {phase === 'error' && (
        <p role="alert" className="w-full text-danger">
          Could not turn notifications on: {error}
        </p>
      )}
    </div>
  );
}
