import { describe, expect, it, vi } from 'vitest';

describe('zod without eval', () => {
  it('sets jitless before zod loads, so object schemas never probe `new Function`', async () => {
    await import('./zod-jitless');
    const probe = vi.spyOn(globalThis, 'Function');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
    expect(probe).not.toHaveBeenCalled();
  });
});
