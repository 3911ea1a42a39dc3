import { afterAll, afterEach, inject } from 'vitest';
import { admin, withDatabase } from './global-setup';
import { assertNoLeaks } from './leak-check';

// Runs before each test file of the server (vitest `setupFiles`), even where modules are cached.

// every answer a test app gives is read for leaks (support/leak-check.ts); the test that got one fails
afterEach(assertNoLeaks);
afterAll(assertNoLeaks);

/**
 * With PostgreSQL, each test file runs on a database of its own, copied from the run's migrated
 * template (support/global-setup.ts) and dropped after the file: TEST_DATABASE_URL points at it for
 * the file's tests, so files can run side by side and none sees another's rows.
 */
const base = inject('pgBase');
const template = inject('pgTemplate');
if (base && template) {
  const name = `spotter_f_${inject('pgRun')}_${process.pid}_${Date.now().toString(36)}`;
  await admin(base, `create database ${name} template ${template}`);
  process.env.TEST_DATABASE_URL = withDatabase(base, name);
  // registered before the file's own hooks, so it runs after them (vitest runs after-hooks as a stack)
  afterAll(async () => {
    process.env.TEST_DATABASE_URL = base;
    await admin(base, `drop database if exists ${name} with (force)`);
  });
}
