import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '@/lib/cn';

type PaginationProps = {
  page: number;
  pageCount: number;
  /** The link of a page (keeps every other part of the query). */
  hrefFor: (page: number) => string;
};

/** Page numbers around the current one, with the first and last always reachable. */
function pageWindow(page: number, pageCount: number): Array<number | 'gap'> {
  const pages = new Set([1, pageCount, page - 1, page, page + 1]);
  const sorted = [...pages].filter((n) => n >= 1 && n <= pageCount).sort((a, b) => a - b);
  const result: Array<number | 'gap'> = [];
  sorted.forEach((n, index) => {
    const previous = sorted[index - 1];
    if (previous !== undefined && n - previous === 2) result.push(previous + 1);
    else if (previous !== undefined && n - previous > 2) result.push('gap');
    result.push(n);
  });
  return result;
}

const itemClass =
  'inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-full px-3 text-sm font-semibold transition-colors duration-150';

export function Pagination({ page, pageCount, hrefFor }: PaginationProps) {
  if (pageCount <= 1) return null;
  const hasPrevious = page > 1;
  const hasNext = page < pageCount;
  return (
    <nav aria-label="Pages" className="mt-10">
      <ul className="flex items-center justify-between gap-2 sm:justify-center">
        <li>
          {hasPrevious ? (
            <Link
              to={hrefFor(page - 1)}
              rel="prev"
              className={cn(itemClass, 'border border-line-strong text-ink hover:bg-surface')}
            >
              <ChevronLeft className="size-4" aria-hidden="true" />
              Previous
            </Link>
          ) : (
            <span aria-disabled="true" className={cn(itemClass, 'border border-line text-subtle')}>
              <ChevronLeft className="size-4" aria-hidden="true" />
              Previous
            </span>
          )}
        </li>
        <li className="text-sm text-muted sm:hidden">
          Page {page} of {pageCount}
        </li>
        {pageWindow(page, pageCount).map((item, index) =>
          item === 'gap' ? (
            <li key={`gap-${index}`} aria-hidden="true" className="hidden px-1 text-subtle sm:block">
              …
            </li>
          ) : (
            <li key={item} className="hidden sm:block">
              <Link
                to={hrefFor(item)}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
                className={cn(itemClass, item === page ? 'bg-ink text-on-ink' : 'text-ink hover:bg-surface')}
              >
                {item}
              </Link>
            </li>
          ),
        )}
        <li>
          {hasNext ? (
            <Link
              to={hrefFor(page + 1)}
              rel="next"
              className={cn(itemClass, 'border border-line-strong text-ink hover:bg-surface')}
            >
              Next
              <ChevronRight className="size-4" aria-hidden="true" />
            </Link>
          ) : (
            <span aria-disabled="true" className={cn(itemClass, 'border border-line text-subtle')}>
              Next
              <ChevronRight className="size-4" aria-hidden="true" />
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
