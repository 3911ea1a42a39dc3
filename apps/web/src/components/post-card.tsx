import { Link } from 'react-router';
import type { BlogPost } from '@/lib/blog-posts';
import { formatCalendarDate } from '@/lib/format';
import { paths } from '@/lib/paths';

type PostCardProps = { post: BlogPost; headingLevel?: 'h2' | 'h3' };

/** An article teaser (the blog, the landing page); the title link covers the whole card. */
export function PostCard({ post, headingLevel: Heading = 'h2' }: PostCardProps) {
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-card border border-line bg-canvas transition-shadow duration-200 hover:shadow-card">
      <img
        src={post.cover.src}
        alt={post.cover.alt}
        width={640}
        height={360}
        loading="lazy"
        decoding="async"
        className="aspect-video h-auto w-full bg-surface-strong"
      />
      <div className="flex flex-1 flex-col p-6">
        <p className="text-sm text-subtle">
          <span className="font-semibold text-accent-ink">{post.category}</span>
          <span aria-hidden="true"> · </span>
          <time dateTime={post.publishedOn}>{formatCalendarDate(post.publishedOn)}</time>
        </p>
        <Heading className="mt-2 font-display text-xl font-semibold text-ink">
          <Link
            to={paths.blogPost.getHref(post.slug)}
            className="after:absolute after:inset-0 after:rounded-card group-hover:underline group-hover:underline-offset-4"
          >
            {post.title}
          </Link>
        </Heading>
        <p className="mt-2 flex-1 text-muted">{post.excerpt}</p>
        <p className="mt-4 text-sm text-subtle">
          {post.author} · {post.readingMinutes} min read
        </p>
      </div>
    </article>
  );
}
