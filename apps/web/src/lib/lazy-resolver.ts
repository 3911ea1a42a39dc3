import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

/** Shown above a form whose validation code could not be downloaded (offline, a new release). */
export const VALIDATION_UNAVAILABLE = 'The form could not load. Check your connection, then reload the page.';

/**
 * A form resolver whose code (the shared zod schemas, zod itself) downloads when it is first
 * needed, or earlier through `preload`, rather than before the form can render. The log-in screen
 * is the first screen of many visits: without zod (27 KB gzip) and its schemas it paints sooner on
 * a phone, and the first validation runs only after the user has typed.
 *
 * If the download fails the form gets a `root` error saying what to do, so a submit never passes
 * unvalidated. The failure is not kept here, but browsers keep a failed module import until the
 * page is reloaded (whatwg/html#10327), hence the message asks for a reload.
 */
export function lazyResolver<V extends FieldValues, C, O>(
  load: () => Promise<Resolver<V, C, O>>,
): Resolver<V, C, O> & { preload: () => void } {
  let loading: Promise<Resolver<V, C, O>> | undefined;
  const get = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const resolver: Resolver<V, C, O> = async (values, context, options) => {
    let resolve: Resolver<V, C, O>;
    try {
      resolve = await get();
    } catch {
      const errors = { root: { type: 'unavailable', message: VALIDATION_UNAVAILABLE } } as FieldErrors<V>;
      return { values: {}, errors };
    }
    return resolve(values, context, options);
  };
  return Object.assign(resolver, { preload: () => void get().catch(() => undefined) });
}
