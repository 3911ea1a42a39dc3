/**
 * Zod compiles a fast parser for each object schema with `new Function`, after probing whether it
 * may. The server's Content-Security-Policy has no 'unsafe-eval', so the probe is refused, and
 * Chrome records each refusal as a CSP issue (Lighthouse's best-practices audit
 * `inspector-issues`), although zod catches it. `jitless` skips the probe and the compiled parser;
 * results are the same.
 *
 * Zod keeps its global config on `globalThis.__zod_globalConfig` and reads `jitless` when a schema
 * is built, so this must run before any zod module: the entry imports it first, and zod only ever
 * loads in lazy chunks after that. zod-jitless.test.ts fails if a zod upgrade stops reading it.
 */
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };

export {};
