// How a refusal writes what it names (rules.ts): a command on one line, cut short; the entries a
// list holds, the first few; entries as the config file spells them. Pure.

const SHOWN_ENTRIES = 6; // entries listed in a refusal; more would not fit on one line
const SHOWN_CHARS = 100; // longer commands are cut in messages

/** `entries` joined with `, `, the first SHOWN_ENTRIES of them; `none` for none. */
export function listed(entries: string[]): string {
  if (!entries.length) return "none";
  return entries.slice(0, SHOWN_ENTRIES).join(", ") + (entries.length > SHOWN_ENTRIES ? ", …" : "");
}

/** One line, control characters escaped, cut to SHOWN_CHARS. */
export function show(text: string): string {
  const escapes: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
  const line = text.replace(/[\x00-\x1f\x7f]/g, (c) => escapes[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return line.length > SHOWN_CHARS ? line.slice(0, SHOWN_CHARS - 1) + "…" : line;
}

/** entries as they are written in the config: `"a", "b"` (one may hold ", ": `bash: npm test > "out, 1.log"`) */
export const quoted = (entries: readonly string[]) => entries.map((e) => JSON.stringify(e)).join(", ");

/** `deny entry \`mcp__d\` in ~/.config/hey/config.toml:7`: a deny entry, and where it is written when that is known (PermissionRules.denyAt). */
export const denyWords = (entry: string, denyAt?: Readonly<Record<string, string>>): string =>
  `deny entry \`${entry}\`${denyAt?.[entry] ? ` in ${denyAt[entry]}` : ""}`;
