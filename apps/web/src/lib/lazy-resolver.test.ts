import type { FieldErrors, Resolver } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { lazyResolver, VALIDATION_UNAVAILABLE } from './lazy-resolver';

type Values = { email: string };
const options = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<Values>>[2];

/** A resolver that finds `email` empty or valid, as the loaded zod resolver would. */
const realResolver: Resolver<Values> = async (values) => {
  if (values.email) return { values, errors: {} };
  const errors: FieldErrors<Values> = { email: { type: 'too_small', message: 'Email is required' } };
  return { values: {}, errors };
};

describe('lazyResolver', () => {
  it('loads the resolver once, on first use or on preload, and answers with it', async () => {
    const load = vi.fn(async () => realResolver);
    const resolver = lazyResolver(load);
    expect(load).not.toHaveBeenCalled();
    resolver.preload();
    resolver.preload();
    expect(load).toHaveBeenCalledTimes(1);
    await expect(resolver({ email: '' }, undefined, options)).resolves.toMatchObject({
      errors: { email: { message: 'Email is required' } },
    });
    await expect(resolver({ email: 'a@b.co' }, undefined, options)).resolves.toEqual({
      values: { email: 'a@b.co' },
      errors: {},
    });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('blocks the submit with a form error when the code cannot load, and tries again next time', async () => {
    const load = vi
      .fn<() => Promise<Resolver<Values>>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(realResolver);
    const resolver = lazyResolver(load);
    resolver.preload(); // a failed preload is not an unhandled rejection, and is not kept
    await expect(resolver({ email: 'a@b.co' }, undefined, options)).resolves.toEqual({
      values: {},
      errors: { root: { type: 'unavailable', message: VALIDATION_UNAVAILABLE } },
    });
    await expect(resolver({ email: 'a@b.co' }, undefined, options)).resolves.toEqual({
      values: { email: 'a@b.co' },
      errors: {},
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
