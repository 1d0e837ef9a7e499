// What a caught value says, for messages. `catch (e)` gives `unknown`: these two read it without a
// cast, so a thrown string or a plain object is shown as itself rather than as "undefined". Pure.

/** The message of a caught value: an Error's `message`, anything else as a string. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The code of a failed system call (`ENOENT`, `EACCES`, `ELOOP`), when `e` carries one. */
export function errnoCode(e: unknown): string | undefined {
  if (typeof e !== "object" || e === null || !("code" in e)) return undefined;
  return typeof e.code === "string" ? e.code : undefined;
}
