import { ArrowLeft, ArrowRight } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { PostCard } from '@/components/post-card';
import { blogPosts, findBlogPost, type BlogBlock } from '@/lib/blog-posts';
import { formatCalendarDate } from '@/lib/format';
import { paths } from '@/lib/paths';

function Block({ block }: { block: BlogBlock }) {
  if (block.type === 'heading') {
    return <h2 className="mt-10 font-display text-2xl font-bold text-ink">{block.text}</h2>;
  }
  if (block.type === 'list') {
    return (
      <ul className="mt-4 list-disc space-y-2 pl-6 marker:text-accent-ink">
        {block.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    );
  }
  return <p className="mt-4">{block.text}</p>;
}

const backLinkClass = 'inline-flex min-h-11 items-center gap-2 text-sm font-semibold text-ink underline-offset-4 hover:underline';

function PostNotFound() {
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col items-start px-4 py-20 sm:px-6 sm:py-28">
      <title>Post not found · Spotter</title>
      <p className="rounded-full bg-accent-soft px-3 py-1 text-xs font-semibold tracking-wide text-accent-ink uppercase">Blog</p>
      <h1 className="mt-3 font-display text-4xl font-bold text-ink sm:text-5xl">Post not found</h1>
      <p className="mt-4 max-w-xl text-lg text-muted">
        We could not find that article. It may have moved, or the address may have a typo. The blog has everything we have
        published.
      </p>
      <Link to={paths.blog.getHref()} className={buttonClasses({ variant: 'outline', className: 'mt-8' })}>
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to the blog
      </Link>
    </section>
  );
}

export function BlogPostPage() {
  const { slug } = useParams();
  const post = findBlogPost(slug);
  if (!post) return <PostNotFound />;

  const more = blogPosts.filter((other) => other.slug !== post.slug).slice(0, 2);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <title>{`${post.title} · Spotter`}</title>
      <article className="mx-auto max-w-3xl">
        <Link to={paths.blog.getHref()} className={backLinkClass}>
          <ArrowLeft className="size-4" aria-hidden="true" />
          All articles
        </Link>
        <header className="mt-6">
          <p className="text-sm text-subtle">
            <span className="font-semibold text-accent-ink">{post.category}</span>
            <span aria-hidden="true"> · </span>
            <time dateTime={post.publishedOn}>{formatCalendarDate(post.publishedOn)}</time>
            <span aria-hidden="true"> · </span>
            {post.readingMinutes} min read
          </p>
          <h1 className="mt-3 font-display text-4xl leading-tight font-bold text-ink sm:text-5xl">{post.title}</h1>
          <p className="mt-4 text-lg text-muted">{post.excerpt}</p>
          <p className="mt-5 flex items-center gap-3 text-sm">
            <span
              aria-hidden="true"
              className="flex size-10 items-center justify-center rounded-full bg-ink font-display font-bold text-accent"
            >
              {post.author.charAt(0)}
            </span>
            <span>
              <span className="block font-semibold text-ink">{post.author}</span>
              <span className="text-muted">{post.authorRole}</span>
            </span>
          </p>
        </header>
        <img
          src={post.cover.src}
          alt={post.cover.alt}
          width={640}
          height={360}
          className="mt-8 aspect-video h-auto w-full rounded-card bg-surface-strong"
        />
        <div className="mt-4 text-lg leading-relaxed text-ink">
          {post.body.map((block, index) => (
            <Block key={index} block={block} />
          ))}
        </div>
        <aside
          aria-label="Find a coach"
          className="on-ink mt-12 flex flex-col items-start gap-4 rounded-card bg-ink p-6 text-on-ink sm:flex-row sm:items-center sm:justify-between"
        >
          <p className="font-display text-lg font-semibold">Want a coach to plan this with you?</p>
          <Link to={paths.trainers.getHref()} className={buttonClasses()}>
            Find your trainer
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </aside>
      </article>

      <section aria-labelledby="more-title" className="mx-auto mt-16 max-w-5xl">
        <h2 id="more-title" className="font-display text-2xl font-bold text-ink">
          Keep reading
        </h2>
        <ul className="mt-6 grid gap-5 md:grid-cols-2">
          {more.map((other) => (
            <li key={other.slug}>
              <PostCard post={other} headingLevel="h3" />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
