/** Waits for a condition, checked every 20 ms, never for a fixed time; fails naming what it waited for. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
