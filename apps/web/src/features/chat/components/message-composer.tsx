import { zodResolver } from '@hookform/resolvers/zod';
import { SendHorizontal } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ChatBodySchema } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { FieldError, inputClasses } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { useSendMessage, type ChatViewer } from '@/lib/api/chats';
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
};

/**
 * The message input: a labelled field and a Send button. A send clears it and toasts; a failure
 * keeps the text and says why under the field.
 */
export function MessageComposer({ viewer, recipientId, sentMessage, refusal }: MessageComposerProps) {
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

  const submit = handleSubmit(({ message }) =>
    send.mutateAsync({ recipientId, message }).then(
      () => {
        reset({ message: '' });
        notify.success(sentMessage);
      },
      (error: unknown) => {
        if (!showServerErrors(error, ['message'], setError))
          setError('message', { type: 'server', message: errorMessage(error) }, { shouldFocus: true });
      },
    ),
  );

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
        <Button type="submit" size="icon" isLoading={send.isPending} aria-label="Send">
          {!send.isPending && <SendHorizontal className="size-5" aria-hidden="true" />}
        </Button>
      </div>
      <FieldError id={errorId}>{errors.message?.message}</FieldError>
    </form>
  );
}
