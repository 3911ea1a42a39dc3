import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { cn } from '@/lib/cn';
import { useSubscribeNewsletter } from '../api/subscribe-newsletter';

/** Footer newsletter sign-up: one required e-mail field (spec section 5). */
export function NewsletterForm() {
  const inputId = useId();
  const [email, setEmail] = useState('');
  const subscribe = useSubscribeNewsletter();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    subscribe.mutate(
      { email: email.trim() },
      {
        onSuccess: ({ message }) => {
          notify.success(message);
          setEmail('');
        },
        onError: (error) => notify.error(errorMessage(error)),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} className="w-full">
      <label htmlFor={inputId} className="mb-2 block text-sm font-semibold text-on-ink">
        Write your email
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className={cn(inputClasses, 'border-ink-line bg-ink-soft text-on-ink placeholder:text-on-ink-muted')}
        />
        <Button type="submit" isLoading={subscribe.isPending} className="shrink-0">
          Subscribe
        </Button>
      </div>
    </form>
  );
}
