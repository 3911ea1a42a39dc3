/**
 * Teasers of the three newest blog articles. Features do not import each other, so the landing
 * page keeps its own copy; latest-posts.test.tsx checks it against the blog's articles.
 */
export type PostTeaser = {
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  /** ISO date (yyyy-mm-dd). */
  publishedOn: string;
  cover: { src: string; alt: string };
};

export const latestPosts: PostTeaser[] = [
  {
    slug: 'your-first-session-with-a-personal-trainer',
    title: 'What to expect from your first session with a personal trainer',
    excerpt:
      'No, you will not be thrown under a barbell on day one. Here is what a good coach does in the first hour, and how to get the most from it.',
    category: 'Coaching',
    publishedOn: '2025-09-18',
    cover: {
      src: '/landing/blog-first-session.svg',
      alt: 'A chat bubble next to a figure pressing a barbell overhead.',
    },
  },
  {
    slug: 'progressive-overload-explained',
    title: 'Progressive overload, explained: how to get stronger every week',
    excerpt:
      'Muscles adapt to what you ask of them. Ask for a little more, regularly and patiently, and they keep adapting. Here is how coaches plan it.',
    category: 'Strength',
    publishedOn: '2025-08-27',
    cover: {
      src: '/landing/blog-progressive-overload.svg',
      alt: 'Five bars rising like a chart next to a figure squatting with a barbell.',
    },
  },
  {
    slug: 'fat-loss-without-crash-diets',
    title: 'Fat loss without crash diets: what actually works',
    excerpt:
      'Steady fat loss is mostly boring habits done well. A coach explains the few that matter and the ones you can safely ignore.',
    category: 'Fat loss',
    publishedOn: '2025-08-05',
    cover: {
      src: '/landing/blog-fat-loss-habits.svg',
      alt: 'A progress ring next to a figure running.',
    },
  },
];
