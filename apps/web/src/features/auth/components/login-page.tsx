import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { useSession } from '@/lib/session';
import { storage } from '@/lib/storage';
import { paths, type Role } from '@/lib/paths';
import { AuthLayout } from './auth-layout';
import { LoginForm } from './login-form';

const copy = {
  user: {
    title: 'Welcome back',
    subtitle: 'Log in to message trainers, save favourites and manage your bookings.',
    switchLink: 'Are you a trainer? Log in here',
  },
  trainer: {
    title: 'Trainer login',
    subtitle: 'Log in to answer your trainees, update your profile and see your bookings.',
    switchLink: 'Not a trainer? Log in as a trainee here',
  },
} as const;

const linkClass = 'font-semibold text-ink underline underline-offset-4 hover:text-accent-ink';

export function LoginPage({ role }: { role: Role }) {
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
      subtitle={text.subtitle}
      footer={
        <div className="space-y-2">
          <p>
            New to Spotter?{' '}
            <Link to={paths.register[role].getHref()} className={linkClass}>
              Register
            </Link>
          </p>
          <p>
            <Link to={paths.login[otherRole].getHref()} className={linkClass}>
              {text.switchLink}
            </Link>
          </p>
        </div>
      }
    >
      <LoginForm key={role} role={role} />
    </AuthLayout>
  );
}
