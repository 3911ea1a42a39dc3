import { PostCard } from '@/components/post-card';
import { blogPosts } from '@/lib/blog-posts';
import { PageIntro } from './page-intro';

export function BlogPage() {
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-14 sm:px-6 sm:py-20">
      <PageIntro eyebrow="Blog" title="Latest Gym Blog & News">
        Practical advice on training, eating and recovering, from the coaches on Spotter.
      </PageIntro>
      <ul className="mt-12 grid gap-5 md:grid-cols-2 lg:grid-cols-3">
        {blogPosts.map((post) => (
          <li key={post.slug}>
            <PostCard post={post} />
          </li>
        ))}
      </ul>
    </div>
  );
}
