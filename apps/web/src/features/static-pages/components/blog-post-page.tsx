import { PagePlaceholder } from '@/components/page-placeholder';
import { paths } from '@/lib/paths';

export function BlogPostPage() {
  return (
    <PagePlaceholder title="Blog article" eyebrow="Blog" backTo={paths.blog.getHref()} backLabel="Back to the blog">
      This article is not published yet. Check back soon, or browse the other posts on the blog.
    </PagePlaceholder>
  );
}
