import { paths } from '@/lib/paths';

export const mainNav = [
  { label: 'Home', to: paths.home.getHref() },
  { label: 'Trainers', to: paths.trainers.getHref() },
  { label: 'BMI Calculator', to: paths.bmi.getHref() },
] as const;

/** Static pages (docs/product.md#static-pages-and-sidebar), grouped under "Pages" in the header. */
export const pagesNav = [
  { label: 'Team', to: paths.team.getHref() },
  { label: 'Pricing', to: paths.pricing.getHref() },
  { label: 'Blog', to: paths.blog.getHref() },
  { label: 'Blog detail', to: paths.blogPost.getHref('your-first-session-with-a-personal-trainer') },
] as const;

export const isPagesSection = (pathname: string) =>
  [paths.team.path, paths.pricing.path, paths.blog.path].some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
