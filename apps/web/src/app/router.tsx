import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '@/lib/paths';
import { ErrorPage } from './error-page';
import { AppShell } from './layout/app-shell';
import { RootLayout } from './layout/root-layout';
import { RouteAnnouncer } from './layout/route-announcer';
import { screens } from './screens';

/**
 * The one route table (docs/product.md#screens). Every screen is a lazy chunk (screens.ts) so the landing page
 * only downloads what it shows; `element` is used where one screen serves both roles.
 */
export const routes: RouteObject[] = [
  {
    // The operator console (docs/product.md#the-operator-console): a layout and a session of its own,
    // no member header or navigation; its chunks load only here.
    path: paths.console.audit.path,
    lazy: () => screens.consoleLayout().then((m) => ({ element: <m.ConsoleLayout announcer={<RouteAnnouncer />} /> })),
    // while its chunk loads: the bar index.html paints, with no member navigation in it
    hydrateFallbackElement: <AppShell />,
    errorElement: (
      <main className="min-h-dvh">
        <ErrorPage />
      </main>
    ),
    children: [
      {
        errorElement: <ErrorPage />,
        children: [
          {
            index: true,
            lazy: () => screens.consoleAudit().then((m) => ({ Component: m.ConsoleAuditPage })),
          },
          {
            path: paths.console.overview.path,
            lazy: () => screens.consoleOverview().then((m) => ({ Component: m.ConsoleOverviewPage })),
          },
          {
            path: paths.console.welcome.path,
            lazy: () => screens.consoleWelcome().then((m) => ({ Component: m.ConsoleWelcomePage })),
          },
          {
            path: paths.console.login.path,
            lazy: () => screens.consoleLogin().then((m) => ({ Component: m.ConsoleLoginPage })),
          },
          {
            path: paths.console.people.path,
            lazy: () => screens.consolePeople().then((m) => ({ Component: m.ConsolePeoplePage })),
          },
          {
            path: paths.console.person.path,
            lazy: () => screens.consolePerson().then((m) => ({ Component: m.ConsolePersonPage })),
          },
          {
            path: paths.console.reports.path,
            lazy: () => screens.consoleReports().then((m) => ({ Component: m.ConsoleReportsPage })),
          },
          {
            path: paths.console.certificates.path,
            lazy: () => screens.consoleCertificates().then((m) => ({ Component: m.ConsoleCertificatesPage })),
          },
          {
            path: paths.console.bookings.path,
            lazy: () => screens.consoleBookings().then((m) => ({ Component: m.ConsoleBookingsPage })),
          },
          {
            path: paths.console.disputes.path,
            lazy: () => screens.consoleDisputes().then((m) => ({ Component: m.ConsoleDisputesPage })),
          },
        ],
      },
    ],
  },
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
            lazy: () => screens.home().then((m) => ({ Component: m.HomePage })),
          },
          {
            path: paths.trainers.path,
            lazy: () => screens.trainerList().then((m) => ({ Component: m.TrainerListPage })),
          },
          {
            path: paths.trainerPublicProfile.path,
            lazy: () => screens.trainerProfile().then((m) => ({ Component: m.TrainerProfileRoute })),
          },

          // Accounts
          {
            path: paths.register.user.path,
            lazy: () => screens.signUp().then((m) => ({ element: <m.SignUpPage role="user" /> })),
          },
          {
            path: paths.register.trainer.path,
            lazy: () => screens.signUp().then((m) => ({ element: <m.SignUpPage role="trainer" /> })),
          },
          {
            path: paths.login.user.path,
            lazy: () => screens.login().then((m) => ({ element: <m.LoginPage role="user" /> })),
          },
          {
            path: paths.login.trainer.path,
            lazy: () => screens.login().then((m) => ({ element: <m.LoginPage role="trainer" /> })),
          },
          {
            path: paths.verificationSuccess.path,
            lazy: () =>
              screens.verificationSuccess().then((m) => ({
                Component: m.VerificationSuccessPage,
              })),
          },
          {
            path: paths.verificationFailed.path,
            lazy: () =>
              screens.verificationFailed().then((m) => ({
                Component: m.VerificationFailedPage,
              })),
          },
          {
            path: paths.forgotPassword.path,
            lazy: () => screens.forgotPassword().then((m) => ({ Component: m.ForgotPasswordPage })),
          },
          {
            path: paths.resetPassword.path,
            lazy: () => screens.resetPassword().then((m) => ({ Component: m.ResetPasswordPage })),
          },

          // Own profile, settings and inbox of each role
          {
            path: paths.profile.user.path,
            lazy: () => screens.ownProfile().then((m) => ({ element: <m.OwnProfileRoute role="user" /> })),
          },
          {
            path: paths.profile.trainer.path,
            lazy: () =>
              screens.ownProfile().then((m) => ({
                element: <m.OwnProfileRoute role="trainer" />,
              })),
          },
          {
            path: paths.settings.user.path,
            lazy: () => screens.settings().then((m) => ({ element: <m.SettingsPage role="user" /> })),
          },
          {
            path: paths.settings.trainer.path,
            lazy: () =>
              screens.settings().then((m) => ({
                element: <m.SettingsPage role="trainer" />,
              })),
          },
          {
            path: paths.payments.user.path,
            lazy: () => screens.payments().then((m) => ({ element: <m.PaymentsPage role="user" /> })),
          },
          {
            path: paths.payments.trainer.path,
            lazy: () =>
              screens.payments().then((m) => ({
                element: <m.PaymentsPage role="trainer" />,
              })),
          },
          {
            path: paths.inbox.user.path,
            lazy: () => screens.inbox().then((m) => ({ element: <m.InboxPage role="user" /> })),
          },
          {
            path: paths.inbox.trainer.path,
            lazy: () => screens.inbox().then((m) => ({ element: <m.InboxPage role="trainer" /> })),
          },
          {
            path: paths.inbox.trainerAlias.path,
            lazy: () => screens.inbox().then((m) => ({ element: <m.InboxPage role="trainer" /> })),
          },

          // Tools and static pages
          {
            path: paths.bmi.path,
            lazy: () => screens.bmi().then((m) => ({ Component: m.BmiPage })),
          },
          {
            path: paths.team.path,
            lazy: () => screens.team().then((m) => ({ Component: m.TeamPage })),
          },
          {
            path: paths.pricing.path,
            lazy: () => screens.pricing().then((m) => ({ Component: m.PricingPage })),
          },
          {
            path: paths.blog.path,
            lazy: () => screens.blog().then((m) => ({ Component: m.BlogPage })),
          },
          {
            path: paths.blogPost.path,
            lazy: () => screens.blogPost().then((m) => ({ Component: m.BlogPostPage })),
          },

          {
            path: '*',
            lazy: () => screens.notFound().then((m) => ({ Component: m.NotFoundPage })),
          },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
