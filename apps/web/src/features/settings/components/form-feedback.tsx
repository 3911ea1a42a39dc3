import { CircleCheck } from 'lucide-react';
import { Alert } from '@/components/ui/alert';

/** A form's failure, announced at once; a failure is always shown, never only logged. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return <Alert tone="error">{message}</Alert>;
}

/**
 * The quiet "saved" note beside a submit button. The toast announces the save; this stays so a
 * person who missed the toast still sees it.
 */
export function SavedNote({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="flex items-center gap-1.5 text-sm font-semibold text-success">
      <CircleCheck className="size-4 shrink-0" aria-hidden="true" />
      {message}
    </p>
  );
}
