import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import { AccountLayout } from '@/components/account-layout';
import { RequireRole } from '@/components/require-role';
import { Skeleton } from '@/components/ui/skeleton';
import type { OwnAccount } from '@/lib/api/accounts';
import type { Role } from '@/lib/paths';
import { AvailabilitySection } from './availability-section';
import { CertificatesSection } from './certificates-section';
import { ContactForm } from './contact-form';
import { DeleteAccountSection } from './delete-account-section';
import { NotificationsForm } from './notifications-form';
import { PasswordForm } from './password-form';
import { PackagesSection } from './packages-section';
import { PayoutsSection } from './payouts-section';
import { PersonalDetailsForm } from './personal-details-form';
import { PhotoSection } from './photo-section';
import { SettingsSection } from './settings-section';

const DeviceNotificationsSection = lazy(() =>
  import('@/components/push-notifications').then((m) => ({ default: m.DeviceNotificationsSection })),
);

/** In page order; `trainerOnly` sections are left out of a user's page and its navigation. */
const sections = [
  { id: 'personal-details', label: 'Personal Details' },
  { id: 'photo', label: 'Photo' },
  { id: 'contact-info', label: 'Contact Info' },
  { id: 'availability', label: 'Availability', trainerOnly: true },
  { id: 'packages', label: 'Packages', trainerOnly: true },
  { id: 'payouts', label: 'Payouts', trainerOnly: true },
  { id: 'certificates', label: 'Certificates', trainerOnly: true },
  { id: 'password', label: 'Change password' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'delete-account', label: 'Delete Account' },
] as const;

type SectionId = (typeof sections)[number]['id'];
const labelOf = (id: SectionId) => sections.find((s) => s.id === id)?.label ?? id;

function SettingsSkeleton() {
  return (
    <div className="space-y-6" aria-hidden="true">
      <Skeleton className="h-9 w-40" />
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-64 rounded-card" />
      ))}
    </div>
  );
}

/** Opens the section named in the address (e.g. the profile's "Go to Contact Info" link). */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    target?.scrollIntoView({ block: 'start' });
  }, [hash]);
}

function SettingsContent({ role, account }: { role: Role; account: OwnAccount }) {
  useScrollToHash();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="font-display text-3xl font-bold text-ink">Settings</h1>
        <nav aria-label="Settings sections" className="mt-3">
          <ul className="flex flex-wrap gap-2">
            {sections
              .filter((section) => role === 'trainer' || !('trainerOnly' in section))
              .map((section) => (
                <li key={section.id}>
                  <a
                    href={`#${section.id}`}
                    className="inline-flex min-h-11 items-center rounded-full border border-line px-4 text-sm font-medium text-muted hover:border-line-strong hover:text-ink"
                  >
                    {section.label}
                  </a>
                </li>
              ))}
          </ul>
        </nav>
      </div>
      <SettingsSection id="personal-details" title={labelOf('personal-details')} description="How you appear on Spotter.">
        <PersonalDetailsForm role={role} account={account} />
      </SettingsSection>
      <SettingsSection id="photo" title={labelOf('photo')} description="Shown on your profile and next to your messages.">
        <PhotoSection role={role} account={account} />
      </SettingsSection>
      <SettingsSection
        id="contact-info"
        title={labelOf('contact-info')}
        description={
          role === 'trainer'
            ? 'Only you see your phone, weight and height; your website is shown in your header.'
            : 'Only you see these. Each save adds your weight to the chart on your profile.'
        }
      >
        <ContactForm role={role} account={account} />
      </SettingsSection>
      {role === 'trainer' && <AvailabilitySection />}
      {role === 'trainer' && 'price' in account && <PackagesSection trainerId={account._id} sessionPrice={account.price} />}
      {role === 'trainer' && <PayoutsSection />}
      {role === 'trainer' && <CertificatesSection />}
      <SettingsSection
        id="password"
        title={labelOf('password')}
        description="You stay logged in here; other devices are logged out."
      >
        <PasswordForm role={role} email={account.email} />
      </SettingsSection>
      <SettingsSection id="notifications" title={labelOf('notifications')} description="Choose which e-mails we may send you.">
        <NotificationsForm role={role} account={account} />
      </SettingsSection>
      <Suspense fallback={null}>
        <DeviceNotificationsSection role={role} />
      </Suspense>
      <SettingsSection id="delete-account" title={labelOf('delete-account')} tone="danger">
        <DeleteAccountSection role={role} />
      </SettingsSection>
    </div>
  );
}

/** Settings of the logged-in account (docs/product.md#settings-screens, docs/product.md#settings-that-work). */
export function SettingsPage({ role }: { role: Role }) {
  return (
    <RequireRole role={role}>
      <AccountLayout role={role} current="settings" title="Settings" skeleton={<SettingsSkeleton />}>
        {(account) => <SettingsContent role={role} account={account} />}
      </AccountLayout>
    </RequireRole>
  );
}
