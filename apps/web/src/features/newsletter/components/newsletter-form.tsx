import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useKeepEarlyInput } from '@/lib/hydration';
import { useSubscribeNewsletter } from '../api/subscribe-newsletter';

/** Footer newsletter sign-up: one required e-mail field (docs/product.md#other-rules). */
export function NewsletterForm() {
  const inputId = useId();
  const [email, setEmail] = useState('');
  const subscribe = useSubscribeNewsletter();
  // Shown under the field, where the person is looking (a toast alone is easy to miss in the footer).
  const [result, setResult] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => setEmail(event.target.value);
  useKeepEarlyInput(input, { value: email, onChange });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setResult(null);
    subscribe.mutate(
      { email: email.trim() },
      {
        onSuccess: ({ message }) => {
          setResult({ tone: 'success', message });
          setEmail('');
        },
        onError: (error) => setResult({ tone: 'error', message: errorMessage(error) }),
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
          ref={input}
          id={inputId}
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={onChange}
          className={cn(inputClasses, 'border-ink-line bg-ink-soft text-on-ink placeholder:text-on-ink-muted')}
        />
        <Button type="submit" isLoading={subscribe.isPending} className="shrink-0">
          Subscribe
        </Button>
      </div>
      <p
        role={result?.tone === 'error' ? 'alert' : 'status'}
        className={cn('mt-2 min-h-5 text-sm font-medium', result?.tone === 'error' ? 'text-danger-line' : 'text-accent')}
      >
        {result?.message}
      </p>
    </form>
  );
}
