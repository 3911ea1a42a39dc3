import { PagePlaceholder } from '@/components/page-placeholder';
import { paths, type Role } from '@/lib/paths';

export function SettingsPage({ role }: { role: Role }) {
  return (
    <PagePlaceholder title="Settings" backTo={paths.profile[role].getHref()} backLabel="Back to my profile">
      Edit your personal details, photo, contact info, password and notifications here soon.
    </PagePlaceholder>
  );
}
