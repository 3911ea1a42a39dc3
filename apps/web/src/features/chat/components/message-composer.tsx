import { zodResolver } from '@hookform/resolvers/zod';
import { SendHorizontal } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ChatBodySchema } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { FieldError, inputClasses } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useSendMessage, type ChatViewer } from '@/lib/api/chats';
import { newClientMessageId, OUTBOX_FULL_MESSAGE } from '@/lib/chat-outbox';
import { cn } from '@/lib/cn';
import { showServerErrors } from '@/lib/form-errors';
import { notify } from '@/lib/toast';

const ZComposer = z.object({ message: ChatBodySchema });
type ComposerValues = z.input<typeof ZComposer>;
type ComposerPayload = z.output<typeof ZComposer>;

type MessageComposerProps = {
  viewer: ChatViewer;
  recipientId: string;
  /** The success toast of docs/product.md#messages-and-errors for this screen. */
  sentMessage: string;
  /** A role rule that forbids sending: its toast instead of a send (docs/product.md#roles-and-permissions). */
  refusal?: () => boolean;
  /**
   * Puts a message in the outbox (docs/product.md#offline); false when the outbox is full. Without it,
   * a message that cannot go now fails as before.
   */
  queue?: (message: string, clientMessageId: string) => boolean;
  /** Messages to this person wait in the outbox: a new one goes behind them, to keep the order. */
  hasWaiting?: boolean;
  /** After the server stored a message (the first send offers notifications). */
  onSent?: () => void;
};

/**
 * The message input: a labelled field and a Send button. A send clears it and toasts; a failure
 * keeps the text and says why under the field. Offline (or when the send meets a network error) the
 * message goes to the outbox instead and shows as pending in the conversation.
 */
export function MessageComposer({
  viewer,
  recipientId,
  sentMessage,
  refusal,
  queue,
  hasWaiting = false,
  onSent,
}: MessageComposerProps) {
  const send = useSendMessage(viewer);
  const id = useId();
  const errorId = `${id}-error`;
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ComposerValues, unknown, ComposerPayload>({
    defaultValues: { message: '' },
    resolver: zodResolver(ZComposer),
  });

  const toOutbox = (message: string, clientMessageId: string) => {
    if (!queue) return false;
    if (queue(message, clientMessageId)) reset({ message: '' });
    else setError('message', { type: 'server', message: OUTBOX_FULL_MESSAGE }, { shouldFocus: true });
    return true;
  };

  const submit = handleSubmit(({ message }) => {
    // picked when written: the outbox and a retry send the same id, and the server stores it once
    const clientMessageId = newClientMessageId();
    if ((!navigator.onLine || hasWaiting) && toOutbox(message, clientMessageId)) return;
    return send.mutateAsync({ recipientId, message, clientMessageId }).then(
      () => {
        reset({ message: '' });
        notify.success(sentMessage);
        onSent?.();
      },
      (error: unknown) => {
        // no answer: the outcome is unknown, and the outbox sends it again with the same id
        if (error instanceof ApiError && error.status === 0 && toOutbox(message, clientMessageId)) return;
        if (!showServerErrors(error, ['message'], setError))
          setError('message', { type: 'server', message: errorMessage(error) }, { shouldFocus: true });
      },
    );
  });

  return (
    <form
      noValidate
      onSubmit={(event) => {
        if (refusal?.()) {
          event.preventDefault();
          return;
        }
        void submit(event);
      }}
      className="border-t border-line bg-canvas p-3"
    >
      <div className="flex items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={id} className="sr-only">
            Your message
          </label>
          <input
            id={id}
            type="text"
            autoComplete="off"
            placeholder="Write a message…"
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={errors.message ? errorId : undefined}
            className={cn(inputClasses, errors.message ? 'border-danger' : 'border-line-strong hover:border-muted')}
            {...register('message')}
          />
        </div>
        <Button type="submit" size="icon" isLoading={send.isPending} aria-label="Send" worksOffline>
          {!send.isPending && <SendHorizontal className="size-5" aria-hidden="true" />}
        </Button>
      </div>
      <FieldError id={errorId}>{errors.message?.message}</FieldError>
    </form>
  );
}
