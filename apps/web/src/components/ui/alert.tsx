import type { ReactNode } from 'react';
import { CircleAlert, CircleCheck, Info, TriangleAlert } from 'lucide-react';
import { cn } from '@/lib/cn';

type AlertTone = 'success' | 'error' | 'info' | 'warning';

const tones: Record<AlertTone, string> = {
  success: 'border-success-line bg-success-soft text-success',
  error: 'border-danger-line bg-danger-soft text-danger',
  info: 'border-line bg-surface text-ink',
  warning: 'border-warning-line bg-warning-soft text-warning-ink',
};

const icons = { success: CircleCheck, error: CircleAlert, info: Info, warning: TriangleAlert };

type AlertProps = {
  tone: AlertTone;
  children: ReactNode;
  title?: string;
  action?: ReactNode;
  className?: string;
  /** Set false for a standing notice that should not be announced as a live update. */
  isLive?: boolean;
};

/**
 * A status banner. Errors are announced at once (role="alert"), everything else politely
 * (role="status").
 */
export function Alert({ tone, title, children, action, className, isLive = true }: AlertProps) {
  const Icon = icons[tone];
  return (
    <div
      role={isLive ? (tone === 'error' ? 'alert' : 'status') : undefined}
      data-tone={tone}
      className={cn('flex items-start gap-3 rounded-xl border px-4 py-3 text-sm', tones[tone], className)}
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        {title && <p className="font-semibold">{title}</p>}
        <div className="font-medium">{children}</div>
      </div>
      {action && <div className="shrink-0 self-center">{action}</div>}
    </div>
  );
}
