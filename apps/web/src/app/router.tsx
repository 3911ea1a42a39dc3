import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '@/lib/paths';
import { ErrorPage } from './error-page';
import { AppShell } from './layout/app-shell';
import { RootLayout } from './layout/root-layout';

/**
 * The one route table (spec section 2). Every screen is a lazy chunk so the landing page only
 * downloads what it shows; `element` is used where one screen serves both roles.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    // While the first screen's chunk loads: the header bar, as painted by index.html.
    hydrateFallbackElement: <AppShell />,
    // Errors of the layout itself: the screen without header and footer.
    errorElement: (
      <main className="min-h-dvh">
        <ErrorPage />
      </main>
    ),
    children: [
      {
        // Errors of a screen: shown inside the layout, so the header still works.
        errorElement: <ErrorPage />,
        children: [
          {
            index: true,
            lazy: () => import('@/features/landing/components/home-page').then((m) => ({ Component: m.HomePage })),
          },
          {
            path: paths.trainers.path,
            lazy: () =>
              import('@/features/trainers/components/trainer-list-page').then((m) => ({ Component: m.TrainerListPage })),
          },
          {
            path: paths.trainerPublicProfile.path,
            lazy: () => import('./routes/trainer-profile-route').then((m) => ({ Component: m.TrainerProfileRoute })),
          },

          // Accounts
          {
            path: paths.register.user.path,
            lazy: () =>
              import('@/features/auth/components/sign-up-page').then((m) => ({ element: <m.SignUpPage role="user" /> })),
          },
          {
            path: paths.register.trainer.path,
            lazy: () =>
              import('@/features/auth/components/sign-up-page').then((m) => ({ element: <m.SignUpPage role="trainer" /> })),
          },
          {
            path: paths.login.user.path,
            lazy: () => import('@/features/auth/components/login-page').then((m) => ({ element: <m.LoginPage role="user" /> })),
          },
          {
            path: paths.login.trainer.path,
            lazy: () =>
              import('@/features/auth/components/login-page').then((m) => ({ element: <m.LoginPage role="trainer" /> })),
          },
          {
            path: paths.verificationSuccess.path,
            lazy: () =>
              import('@/features/auth/components/verification-success-page').then((m) => ({
                Component: m.VerificationSuccessPage,
              })),
          },
          {
            path: paths.verificationFailed.path,
            lazy: () =>
              import('@/features/auth/components/verification-failed-page').then((m) => ({
                Component: m.VerificationFailedPage,
              })),
          },
          {
            path: paths.forgotPassword.path,
            lazy: () =>
              import('@/features/auth/components/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage })),
          },
          {
            path: paths.resetPassword.path,
            lazy: () =>
              import('@/features/auth/components/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage })),
          },

          // Own profile, settings and inbox of each role
          {
            path: paths.profile.user.path,
            lazy: () => import('./routes/own-profile-route').then((m) => ({ element: <m.OwnProfileRoute role="user" /> })),
          },
          {
            path: paths.profile.trainer.path,
            lazy: () =>
              import('./routes/own-profile-route').then((m) => ({
                element: <m.OwnProfileRoute role="trainer" />,
              })),
          },
          {
            path: paths.settings.user.path,
            lazy: () =>
              import('@/features/settings/components/settings-page').then((m) => ({ element: <m.SettingsPage role="user" /> })),
          },
          {
            path: paths.settings.trainer.path,
            lazy: () =>
              import('@/features/settings/components/settings-page').then((m) => ({
                element: <m.SettingsPage role="trainer" />,
              })),
          },
          {
            path: paths.payments.user.path,
            lazy: () =>
              import('@/features/payments/components/payments-page').then((m) => ({ element: <m.PaymentsPage role="user" /> })),
          },
          {
            path: paths.payments.trainer.path,
            lazy: () =>
              import('@/features/payments/components/payments-page').then((m) => ({
                element: <m.PaymentsPage role="trainer" />,
              })),
          },
          {
            path: paths.inbox.user.path,
            lazy: () => import('@/features/chat/components/inbox-page').then((m) => ({ element: <m.InboxPage role="user" /> })),
          },
          {
            path: paths.inbox.trainer.path,
            lazy: () =>
              import('@/features/chat/components/inbox-page').then((m) => ({ element: <m.InboxPage role="trainer" /> })),
          },
          {
            path: paths.inbox.trainerAlias.path,
            lazy: () =>
              import('@/features/chat/components/inbox-page').then((m) => ({ element: <m.InboxPage role="trainer" /> })),
          },

          // Tools and static pages
          {
            path: paths.bmi.path,
            lazy: () => import('@/features/bmi/components/bmi-page').then((m) => ({ Component: m.BmiPage })),
          },
          {
            path: paths.team.path,
            lazy: () => import('@/features/static-pages/components/team-page').then((m) => ({ Component: m.TeamPage })),
          },
          {
            path: paths.pricing.path,
            lazy: () => import('@/features/static-pages/components/pricing-page').then((m) => ({ Component: m.PricingPage })),
          },
          {
            path: paths.blog.path,
            lazy: () => import('@/features/static-pages/components/blog-page').then((m) => ({ Component: m.BlogPage })),
          },
          {
            path: paths.blogPost.path,
            lazy: () => import('@/features/static-pages/components/blog-post-page').then((m) => ({ Component: m.BlogPostPage })),
          },

          {
            path: '*',
            lazy: () => import('./not-found-page').then((m) => ({ Component: m.NotFoundPage })),
          },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
