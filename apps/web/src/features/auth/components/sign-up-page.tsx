import { CircleCheck } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { useSession } from '@/lib/session';
import { storage } from '@/lib/storage';
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
    subtitle: 'Set your price and get found by trainees in your city. Your account comes with:',
    switchText: 'Looking for a trainer?',
    switchLink: 'Sign up as a trainee',
  },
} as const;

/** What a coach gets, all of which exists today (issue 11: copy never promises more). */
const coachBenefits = [
  'A public profile with your price, city and reviews',
  'Bookings from your weekly availability',
  'Payments through PayPal, with your earnings listed',
  'A chat inbox to answer trainees before they book',
];

export function SignUpPage({ role }: { role: Role }) {
  const text = copy[role];
  const { role: sessionRole } = useSession();
  // Logged in when the page opened (not by this page's own form): their profile is the place to go.
  const [wasLoggedIn] = useState(() => storage.getToken() !== null);
  if (wasLoggedIn && sessionRole) return <Navigate to={paths.profile[sessionRole].getHref()} replace />;
  const otherRole: Role = role === 'user' ? 'trainer' : 'user';
  return (
    <AuthLayout
      audience={role}
      title={text.title}
      subtitle={
        role === 'trainer' ? (
          <>
            {text.subtitle}
            <ul className="mt-3 space-y-1.5 text-sm text-ink">
              {coachBenefits.map((benefit) => (
                <li key={benefit} className="flex items-start gap-2">
                  <CircleCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
                  {benefit}
                </li>
              ))}
            </ul>
          </>
        ) : (
          text.subtitle
        )
      }
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
