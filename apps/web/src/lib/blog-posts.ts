// hashed file names (cached for a year), never inlined into the script
import firstSessionPicture from './blog-images/blog-first-session.svg?no-inline';
import progressiveOverloadPicture from './blog-images/blog-progressive-overload.svg?no-inline';
import fatLossHabitsPicture from './blog-images/blog-fat-loss-habits.svg?no-inline';
import mobilityTenMinutesPicture from './blog-images/blog-mobility-ten-minutes.svg?no-inline';

/**
 * The blog's articles, the one source for the blog and the landing page's teasers (docs/product.md#numbers-from-data:
 * content with no data behind it stays static). Newest first.
 */
export type BlogBlock =
  { type: 'paragraph'; text: string } | { type: 'heading'; text: string } | { type: 'list'; items: string[] };

export type BlogPost = {
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  author: string;
  authorRole: string;
  /** ISO date (yyyy-mm-dd). */
  publishedOn: string;
  readingMinutes: number;
  cover: { src: string; alt: string };
  body: BlogBlock[];
};

export const blogPosts: BlogPost[] = [
  {
    slug: 'your-first-session-with-a-personal-trainer',
    title: 'What to expect from your first session with a personal trainer',
    excerpt:
      'No, you will not be thrown under a barbell on day one. Here is what a good coach does in the first hour, and how to get the most from it.',
    category: 'Coaching',
    author: 'Salma Adel',
    authorRole: 'Head of Coaching',
    publishedOn: '2025-09-18',
    readingMinutes: 5,
    cover: {
      src: firstSessionPicture,
      alt: 'A chat bubble next to a figure pressing a barbell overhead.',
    },
    body: [
      {
        type: 'paragraph',
        text: 'Booking a first session can feel like a test you have not studied for. It is not. A good coach uses the first hour to learn about you, and most of what happens is conversation and easy movement.',
      },
      { type: 'heading', text: 'The conversation comes first' },
      {
        type: 'paragraph',
        text: 'Expect questions about your goals, your week, your sleep and any injury, old or new. Be honest about how often you can really train: a plan for three sessions a week that you keep beats a plan for six that you abandon in March.',
      },
      { type: 'heading', text: 'A movement check, not a fitness test' },
      {
        type: 'paragraph',
        text: 'Your coach will watch you squat, hinge, push and pull with little or no weight. They are looking at how you move, not at how much you lift, so they know where to start and what to leave out for now.',
      },
      { type: 'heading', text: 'What to bring' },
      {
        type: 'list',
        items: [
          'Comfortable clothes and shoes with a flat, stable sole.',
          'A water bottle and a small towel.',
          'A short list of questions: how you will track progress, how to reach the coach between sessions, what happens if you need to cancel.',
        ],
      },
      { type: 'heading', text: 'After the session' },
      {
        type: 'paragraph',
        text: 'You should leave knowing what the next four weeks look like and why. If you do not, ask. Then write a short review on Spotter: honest reviews from people who trained with a coach are the most useful thing the next person reads.',
      },
    ],
  },
  {
    slug: 'progressive-overload-explained',
    title: 'Progressive overload, explained: how to get stronger every week',
    excerpt:
      'Muscles adapt to what you ask of them. Ask for a little more, regularly and patiently, and they keep adapting. Here is how coaches plan it.',
    category: 'Strength',
    author: 'Karim Nabil',
    authorRole: 'Strength coach',
    publishedOn: '2025-08-27',
    readingMinutes: 6,
    cover: {
      src: progressiveOverloadPicture,
      alt: 'Five bars rising like a chart next to a figure squatting with a barbell.',
    },
    body: [
      {
        type: 'paragraph',
        text: 'Progressive overload is the single idea behind every strength programme that works: do slightly more than last time, recover, repeat. The trick is choosing what “more” means for you this week.',
      },
      { type: 'heading', text: 'Four ways to add a little' },
      {
        type: 'list',
        items: [
          'Weight: add the smallest jump your gym allows, often 1 to 2.5 kg.',
          'Reps: keep the weight and do one more clean repetition per set.',
          'Sets: add a set once the current ones feel solid.',
          'Quality: the same numbers, but slower, deeper or with a pause at the bottom.',
        ],
      },
      { type: 'heading', text: 'Leave a rep or two in the tank' },
      {
        type: 'paragraph',
        text: 'Most sets should end with one or two good repetitions still possible. Training to failure every time makes recovery slower and technique worse, and it rarely makes you stronger faster.',
      },
      { type: 'heading', text: 'Plan the easy weeks too' },
      {
        type: 'paragraph',
        text: 'Every four to six weeks a good coach programmes a lighter week. It feels too easy, and that is the point: it lets tendons, joints and motivation catch up, and the next block usually starts with new personal bests.',
      },
      {
        type: 'paragraph',
        text: 'Write every session down, even in your phone notes. Progress you can see is progress you keep chasing.',
      },
    ],
  },
  {
    slug: 'fat-loss-without-crash-diets',
    title: 'Fat loss without crash diets: what actually works',
    excerpt:
      'Steady fat loss is mostly boring habits done well. A coach explains the few that matter and the ones you can safely ignore.',
    category: 'Fat loss',
    author: 'Nour Hassan',
    authorRole: 'Nutrition and fat-loss coach',
    publishedOn: '2025-08-05',
    readingMinutes: 5,
    cover: {
      src: fatLossHabitsPicture,
      alt: 'A progress ring next to a figure running.',
    },
    body: [
      {
        type: 'paragraph',
        text: 'Crash diets work for about three weeks. Then hunger, low energy and a social life win, and the weight comes back. The people who keep fat off long term do a few unexciting things consistently.',
      },
      { type: 'heading', text: 'The habits that matter' },
      {
        type: 'list',
        items: [
          'A modest calorie deficit you can live with, not the biggest one you can survive.',
          'Protein at every meal: it keeps you full and protects the muscle you are training.',
          'Strength training two to four times a week, so the weight you lose is fat rather than muscle.',
          'Daily steps. Walking burns more over a week than most people expect.',
          'Seven or more hours of sleep; short nights make everything harder.',
        ],
      },
      { type: 'heading', text: 'What you can ignore' },
      {
        type: 'paragraph',
        text: 'Fat-burning teas, fasted cardio as a rule, and cutting out whole food groups without a medical reason. None of them beats the habits above, and most make them harder to keep.',
      },
      { type: 'heading', text: 'Measure more than the scale' },
      {
        type: 'paragraph',
        text: 'Body weight moves around by a kilogram or two from day to day. Track the weekly average, your waist measurement and how your training is going. If all three trend the right way, you are on track.',
      },
    ],
  },
  {
    slug: 'ten-minute-mobility-routine',
    title: 'A ten-minute mobility routine for desk days',
    excerpt: 'Stiff hips and tight shoulders after a day at the desk? Five moves, two minutes each, no equipment needed.',
    category: 'Mobility',
    author: 'Dina Samir',
    authorRole: 'Mobility specialist',
    publishedOn: '2025-07-14',
    readingMinutes: 4,
    cover: {
      src: mobilityTenMinutesPicture,
      alt: 'A clock face next to a figure in a wide warrior stance.',
    },
    body: [
      {
        type: 'paragraph',
        text: 'Sitting is not the enemy; staying in one position for hours is. This routine moves the joints that a desk day keeps still. Do it after work, or split it into two five-minute breaks.',
      },
      { type: 'heading', text: 'The routine' },
      {
        type: 'list',
        items: [
          'Cat and cow, 2 minutes: slow, round and arch the whole spine on hands and knees.',
          'Half-kneeling hip flexor stretch, 1 minute per side: squeeze the glute of the back leg.',
          'World’s greatest stretch, 2 minutes: lunge, elbow to instep, then rotate and reach up.',
          'Thoracic rotations, 1 minute per side: lying on your side, open the top arm like a book.',
          'Deep squat hold, 2 minutes: hold on to a door frame if you need to, heels down.',
        ],
      },
      { type: 'heading', text: 'How it should feel' },
      {
        type: 'paragraph',
        text: 'A stretch, never a pinch. Breathe slowly and let each position get a little deeper with every exhale. If something hurts sharply or goes numb, stop and ask a coach or a physiotherapist to have a look.',
      },
    ],
  },
];

export const findBlogPost = (slug: string | undefined) => blogPosts.find((post) => post.slug === slug);

/** The newest articles, for teasers (the blog is kept newest first). */
export const latestBlogPosts = (count: number) => blogPosts.slice(0, count);
