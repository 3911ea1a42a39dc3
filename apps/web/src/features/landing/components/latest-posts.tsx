import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/lib/paths';
import { latestPosts } from '../data/latest-posts';

const formatDate = (isoDate: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );

/** "Latest Gym Blog & News": the three newest articles, each card links to the article. */
export function LatestPosts() {
  return (
    <section aria-labelledby="blog-title" className="bg-surface">
      <div className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">Blog</p>
            <h2 id="blog-title" className="mt-2 font-display text-3xl font-bold text-ink sm:text-4xl">
              Latest Gym Blog & News
            </h2>
            <p className="mt-3 text-lg text-muted">Practical advice from Spotter coaches, written for real weeks.</p>
          </div>
          <Link to={paths.blog.getHref()} className={buttonClasses({ variant: 'outline', className: 'self-start sm:self-auto' })}>
            All articles
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>
        <ul className="mt-10 grid gap-5 md:grid-cols-3">
          {latestPosts.map((post) => (
            <li key={post.slug}>
              <article className="group relative flex h-full flex-col overflow-hidden rounded-card bg-canvas shadow-card">
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
                    <time dateTime={post.publishedOn}>{formatDate(post.publishedOn)}</time>
                  </p>
                  <h3 className="mt-2 font-display text-xl font-semibold text-ink">
                    <Link
                      to={paths.blogPost.getHref(post.slug)}
                      className="after:absolute after:inset-0 after:rounded-card group-hover:underline group-hover:underline-offset-4"
                    >
                      {post.title}
                    </Link>
                  </h3>
                  <p className="mt-2 text-muted">{post.excerpt}</p>
                </div>
              </article>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
