import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/lib/paths';

/** What the error screen says (docs/product.md#not-found-and-error): status and text, the message, or the serialised error. */
export function describeError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** The `errorElement` of the route table: 'Unexpected Application Error!'. */
export function ErrorPage() {
  const error = useRouteError();
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col items-start px-4 py-20 sm:px-6">
      <title>Unexpected Application Error! · Spotter</title>
      <h1 className="font-display text-3xl font-bold text-ink sm:text-4xl">Unexpected Application Error!</h1>
      <pre className="mt-6 w-full overflow-x-auto rounded-xl border border-danger-line bg-danger-soft p-4 font-mono text-sm whitespace-pre-wrap text-danger">
        {describeError(error)}
      </pre>
      <div className="mt-8 flex flex-wrap gap-3">
        <button type="button" onClick={() => window.location.reload()} className={buttonClasses()}>
          Reload the page
        </button>
        <Link to={paths.home.getHref()} reloadDocument className={buttonClasses({ variant: 'outline' })}>
          Back to home
        </Link>
      </div>
    </section>
  );
}
