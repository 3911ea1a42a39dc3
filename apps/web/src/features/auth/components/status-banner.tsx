import { Alert } from '@/components/ui/alert';

export type Status = { tone: 'success' | 'error'; message: string } | null;

/** The banner above auth forms: green with the server's message on success, red on failure. */
export function StatusBanner({ status }: { status: Status }) {
  if (!status) return null;
  return <Alert tone={status.tone}>{status.message}</Alert>;
}
