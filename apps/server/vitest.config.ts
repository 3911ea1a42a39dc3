import { defineConfig } from 'vitest/config';

/**
 * The server's tests, by suffix (docs/testing.md): `*.test.ts` unit, `*.api.test.ts` API (an app on a
 * database), `*.slow.test.ts` slow (faults, server processes, slow clients, query plans, fuzzing).
 * Every file starts from a database migrated once per run (support/global-setup.ts).
 */
export default defineConfig({
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // one module graph per worker, not per file: the app's imports are evaluated once (docs/testing.md#how-long);
    // support/setup.ts still runs before every file
    isolate: false,
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
