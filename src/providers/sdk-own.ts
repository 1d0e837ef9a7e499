// What a vendor SDK does of its own accord, undone or said hey's way: what it prints with
// console.warn — Anthropic's names a deprecated model, or budget thinking on a model that prefers
// adaptive, on every request whatever its logLevel — caught around the call and said once per run
// as hey's notice (printed as it was, it landed on the REPL's spinner line and, in a -p run, once
// per request on stderr); the headers it takes from the environment, kept off hey's requests.

/** The warnings caught, each said once: `call`'s result, and what is new to say. */
export function sdkWarnings(): { around<T>(call: () => T): T; take(): string | undefined } {
  const said = new Set<string>();
  let pending: string | undefined;
  return {
    around(call) {
      const warn = console.warn;
      console.warn = (...parts: unknown[]) => {
        const text = parts.map(String).join(" ").split("\n")[0]!.trim();
        if (text && !said.has(text)) said.add(text), (pending = pending ? `${pending}; ${text}` : text);
      };
      try {
        return call();
      } finally {
        console.warn = warn;
      }
    },
    take() {
      const text = pending;
      pending = undefined;
      return text;
    },
  };
}

/** `events`, with a `notice` of what `warnings` caught before the first event that follows the catch. */
export async function* withSdkNotices<E>(
  events: AsyncIterable<E>,
  warnings: { take(): string | undefined },
  notice: (message: string) => E,
): AsyncGenerator<E> {
  for await (const event of events) {
    const said = warnings.take();
    if (said) yield notice(`the vendor's SDK says: ${said}`);
    yield event;
  }
}

/**
 * The SDK's constructor merges the `Name: value` lines of ANTHROPIC_CUSTOM_HEADERS (a Claude Code
 * setting, often a gateway's secret) into every request; a null per name keeps them off this
 * endpoint. Configured headers of the same name still win, as they come later.
 */
export function envHeaderNulls(env: Record<string, string | undefined>): Record<string, null> {
  const names = (env.ANTHROPIC_CUSTOM_HEADERS ?? "").split("\n").flatMap((line) => {
    const colon = line.indexOf(":");
    return colon > 0 ? [line.slice(0, colon).trim()] : [];
  });
  return Object.fromEntries(names.filter(Boolean).map((n) => [n, null]));
}
