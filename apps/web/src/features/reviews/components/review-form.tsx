import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type FormEvent } from 'react';
import { useController, useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { REVIEW_COMMENT_MAX, ROLE_MSG, ZCreateReviewRequest, type TReview } from '@spotter/shared';
import { ResendVerificationButton } from '@/components/resend-verification-button';
import { Alert } from '@/components/ui/alert';
import { useNeedsConnection } from '@/components/needs-connection';
import { Button } from '@/components/ui/button';
import { FieldError, inputClasses } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { accountKeys } from '@/lib/api/accounts';
import { cn } from '@/lib/cn';
import { showServerErrors } from '@/lib/form-errors';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';
import { useCreateReview } from '../api/create-review';
import { StarRatingInput } from './star-rating-input';

const ZReviewForm = ZCreateReviewRequest.pick({ rating: true, comment: true });
type ReviewValues = z.input<typeof ZReviewForm>;
type ReviewPayload = z.output<typeof ZReviewForm>;

const EMPTY: ReviewValues = { rating: -1, comment: '' };

type ReviewFormProps = {
  trainerId: string;
  firstName: string;
  /** The caller's review of this trainer, if any: the form starts with it. */
  myReview?: TReview;
};

const FIELDS = ['rating', 'comment'] as const;

type Failure = { message: string; isUnverified: boolean };

/** The server's answer to an account that has not confirmed its e-mail. */
const isUnverifiedRefusal = (error: unknown) => error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED';

/**
 * Post a review; posting again edits it (docs/product.md#reviews). Only users may post (docs/product.md#roles-and-permissions).
 */
export function ReviewForm({ trainerId, firstName, myReview }: ReviewFormProps) {
  const { role } = useSession();
  const queryClient = useQueryClient();
  const createReview = useCreateReview();
  const [failure, setFailure] = useState<Failure | null>(null);
  const commentId = useId();
  const counterId = `${commentId}-counter`;
  const commentErrorId = `${commentId}-error`;

  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm<ReviewValues, unknown, ReviewPayload>({
    mode: 'onTouched',
    defaultValues: myReview ? { rating: myReview.rating, comment: myReview.comment } : EMPTY,
    resolver: zodResolver(ZReviewForm),
  });
  const { field: ratingField } = useController({ control, name: 'rating' });
  const commentLength = watch('comment')?.length ?? 0;

  const post = handleSubmit((values) => {
    setFailure(null);
    createReview.mutate(
      { trainerId, ...values },
      {
        onSuccess: ({ message }) => {
          notify.success(message);
          // The saved review stays in the form, ready to edit (posting again updates it).
          reset(values);
        },
        onError: (error) => {
          const isUnverified = isUnverifiedRefusal(error);
          setFailure({ message: errorMessage(error), isUnverified });
          showServerErrors(error, FIELDS, setError, { isFocusing: false });
          // The account is not what was loaded (or not loaded yet): refresh it, so the section shows the note.
          if (isUnverified) void queryClient.invalidateQueries({ queryKey: accountKeys.own('user') });
        },
      },
    );
  });

  const connection = useNeedsConnection();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (role === 'trainer') {
      event.preventDefault();
      notify.error(ROLE_MSG.trainersCantReview);
      return;
    }
    void post(event);
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-labelledby={`${commentId}-title`}
      className="space-y-5 rounded-card border border-line bg-surface p-5 sm:p-6"
    >
      <h3 id={`${commentId}-title`} className="text-lg font-bold text-ink">
        {myReview ? 'Update your review' : `Review ${firstName}`}
      </h3>
      {myReview && (
        <Alert tone="info" isLive={false}>
          You reviewed {firstName}; posting again updates your review
        </Alert>
      )}
      {failure && (
        <Alert tone="error" action={failure.isUnverified ? <ResendVerificationButton /> : undefined}>
          {failure.message}
        </Alert>
      )}

      <StarRatingInput
        name={ratingField.name}
        value={ratingField.value}
        onChange={ratingField.onChange}
        onBlur={ratingField.onBlur}
        error={errors.rating?.message}
      />

      <div>
        <div className="mb-1.5 flex items-baseline justify-between gap-3">
          <label htmlFor={commentId} className="text-sm font-semibold text-ink">
            Your review
          </label>
          <span
            id={counterId}
            className={cn(
              'text-sm tabular-nums',
              commentLength > REVIEW_COMMENT_MAX ? 'font-semibold text-danger' : 'text-subtle',
            )}
          >
            {commentLength}/{REVIEW_COMMENT_MAX}
          </span>
        </div>
        <textarea
          id={commentId}
          rows={4}
          aria-invalid={errors.comment ? true : undefined}
          aria-describedby={[counterId, errors.comment ? commentErrorId : ''].filter(Boolean).join(' ')}
          placeholder={`How was your training with ${firstName}?`}
          className={cn(inputClasses, 'resize-y', errors.comment ? 'border-danger' : 'border-line-strong hover:border-muted')}
          {...register('comment')}
        />
        <FieldError id={commentErrorId}>{errors.comment?.message}</FieldError>
      </div>

      <Button type="submit" isLoading={createReview.isPending} disabled={!connection.isOnline} {...connection.buttonProps}>
        Post review
      </Button>
      {connection.note}
    </form>
  );
}
