// Setting keys of one `[provider.NAME]` table in a config file's text, leaving every other line —
// comments, order, spacing — as the user wrote it (`hey doctor --write`). Pure; the caller parses
// the result to verify it before writing.
import { tomlLines } from "./report.ts";
import type { Flags } from "./checks.ts";

/** The table cannot be edited as text (absent, or defined with dotted keys or inline). */
export class TomlEditError extends Error {
  override name = "TomlEditError";
}

/**
 * `text` with each of `flags` set in the `[provider.NAME]` table: an existing `key = …` line is
 * replaced in place, a new key goes after the table's last line. Throws TomlEditError when the
 * file has no such table header.
 */
export function setProviderKeys(text: string, name: string, flags: Flags): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  const header = headerPattern(name);
  const start = lines.findIndex((l) => header.test(l));
  if (start < 0) throw new TomlEditError(`there is no [provider.${name}] table header to add the flags to`);
  let end = lines.findIndex((l, i) => i > start && /^\s*\[/.test(l));
  if (end < 0) end = lines.length;

  const additions: string[] = [];
  for (const line of tomlLines(flags)) {
    const key = line.slice(0, line.indexOf(" ="));
    const at = lines.findIndex((l, i) => i > start && i < end && new RegExp(`^\\s*${key}\\s*=`).test(l));
    if (at >= 0) lines[at] = `${/^\s*/.exec(lines[at]!)![0]}${line}`;
    else additions.push(line);
  }
  // after the table's last line that holds something: a blank line before the next table stays
  let last = end - 1;
  while (last > start && lines[last]!.trim() === "") last--;
  lines.splice(last + 1, 0, ...additions);
  return lines.join(eol);
}

/** `[provider.NAME]`, `[ provider . "NAME" ]`, with an optional comment after it. */
function headerPattern(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^\\s*\\[\\s*provider\\s*\\.\\s*(?:${escaped}|"${escaped}"|'${escaped}')\\s*\\]\\s*(?:#.*)?$`);
}
