import { Link } from 'react-router';
import { paths, type Role } from '@/lib/paths';
import { AuthLayout } from './auth-layout';
import { SignUpForm } from './sign-up-form';

const copy = {
  user: {
    title: 'Create your account',
    subtitle: 'Find a personal trainer, read honest reviews and book your first session.',
    switchText: 'Are you a trainer?',
    switchLink: 'Sign up as a trainer',
  },
  trainer: {
    title: 'Join Spotter as a trainer',
    subtitle: 'Set your price, get discovered by trainees near you and manage bookings in one place.',
    switchText: 'Looking for a trainer?',
    switchLink: 'Sign up as a trainee',
  },
} as const;

export function SignUpPage({ role }: { role: Role }) {
  const text = copy[role];
  const otherRole: Role = role === 'user' ? 'trainer' : 'user';
  return (
    <AuthLayout
      title={text.title}
      subtitle={text.subtitle}
      footer={
        <div className="space-y-2">
          <p>
            <Link to={paths.login[role].getHref()} className="font-semibold text-ink underline underline-offset-4">
              Already have an account? Log In
            </Link>
          </p>
          <p>
            {text.switchText}{' '}
            <Link to={paths.register[otherRole].getHref()} className="font-semibold text-ink underline underline-offset-4">
              {text.switchLink}
            </Link>
          </p>
        </div>
      }
    >
      <SignUpForm key={role} role={role} />
    </AuthLayout>
  );
}
