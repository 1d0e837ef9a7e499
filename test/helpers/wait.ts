// Waiting on conditions, never on clocks: a test that needs something to have happened polls for
// it (with a generous deadline that only a real failure reaches), and a test that needs something
// to be *in progress* holds it open with a gate instead of hoping a sleep lasts long enough.

/** How often `until` looks again. */
const POLL_MS = 10;

/**
 * Resolves once `check()` is true (it may be async); rejects naming `what` when `timeoutMs` passes
 * first. The deadline is a safety net for a broken run, not a measure of anything.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !(await check()); await Bun.sleep(POLL_MS))
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** The first value `find()` returns that is not undefined, polled as `until` polls. */
export async function found<T>(find: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  let value: T | undefined;
  await until(async () => (value = await find()) !== undefined, what, timeoutMs);
  return value!;
}

/** A gate a test opens: work awaiting `passed` is held until `open()`. */
export function gate(): { passed: Promise<void>; open(): void } {
  let open = () => {};
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { passed, open };
}
