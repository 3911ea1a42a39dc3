import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, vi } from 'vitest';

/**
 * findBy…/waitFor give up after 1 s by default, which a busy 2-core machine (six test runs at
 * once) can exceed without anything being wrong. Waiting longer costs nothing when things pass:
 * each one returns as soon as its condition holds.
 */
configure({ asyncUtilTimeout: 10_000 });

/**
 * A console.error during a test fails it (docs/architecture.md#conventions: tests). React reports act() warnings,
 * invalid DOM nesting and failed prop types there.
 */
let consoleErrors: unknown[][] = [];
const originalError = console.error;

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
    originalError(...args);
  });
  // jsdom does not scroll; the forms scroll the status banner into view. (Tests of the server's
  // render run without a window: render-page.node.test.tsx.)
  if (typeof window !== 'undefined') window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});

afterEach(() => {
  cleanup();
  // sonner keeps its toasts in a module: without this one test's toast would show in the next.
  toast.dismiss();
  if (typeof window !== 'undefined') window.localStorage.clear();
  const errors = consoleErrors;
  consoleErrors = [];
  if (errors.length > 0) {
    throw new Error(`console.error was called during the test:\n${errors.map((args) => args.map(String).join(' ')).join('\n')}`);
  }
});
