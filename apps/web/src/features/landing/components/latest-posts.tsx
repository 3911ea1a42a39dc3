import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { PostCard } from '@/components/post-card';
import { latestBlogPosts } from '@/lib/blog-posts';
import { paths } from '@/lib/paths';

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
          {latestBlogPosts(3).map((post) => (
            <li key={post.slug}>
              <PostCard post={post} headingLevel="h3" />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
