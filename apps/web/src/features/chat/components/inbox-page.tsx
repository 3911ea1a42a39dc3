import { PagePlaceholder } from '@/components/page-placeholder';
import { paths, type Role } from '@/lib/paths';

export function InboxPage({ role }: { role: Role }) {
  return (
    <PagePlaceholder title="Messages" backTo={paths.profile[role].getHref()} backLabel="Back to my profile">
      {role === 'trainer'
        ? 'Your conversations with trainees will appear here, in real time.'
        : 'Your conversations with trainers will appear here, in real time.'}
    </PagePlaceholder>
  );
}
