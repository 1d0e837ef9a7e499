// Reading one `[permission]` entry (SPEC §8, §24): "TOOLNAME" — a lowercase glob on tool names,
// built-in or MCP ("read_file", "github_*", "*"; an MCP server's in Claude Code's spelling too,
// "mcp__fs", "mcp__fs__move_file": tool-match.ts) — "bash: PATTERN", or a file tool's path rule
// ("read_file: src/**", "edit: ~/notes/*": file-paths.ts). Anything else is a
// configuration error, never a rule that silently matches nothing; where an entry looks like
// another agent's spelling ("Bash(git:*)", "Write", "write_file:*.env") the message gives hey's. Pure.
import { harmless, type Pattern } from "./match.ts";
import { parseSyntax } from "./shell-syntax.ts";
import type { Word } from "./shell-model.ts";
import { BUILTIN_TOOLS } from "../kernel/tool-names.ts";
import { editDistance } from "../kernel/spelling.ts";
import { scopedProblem } from "./tool-match.ts";
import { type FilePattern, PATH_TOOLS, readFilePattern } from "./file-paths.ts";

export type Entry = { tool: string } | { pattern: Pattern } | { file: FilePattern };

// A tool name as MCP tools keep them (sanitized to [A-Za-z0-9_-]), lowercase, `*` as a glob.
const TOOL_GLOB = /^[a-z0-9_*-]+$/;
const STAR: Word = { text: "*", raw: "*", unknown: false, glob: true };

/** Other agents' tool names (lowercased) and the hey tool that does the same. */
const SPELLINGS: Record<string, string> = {
  bash: "bash",
  shell: "bash",
  shelltool: "bash",
  run_shell_command: "bash",
  read: "read_file",
  readfile: "read_file",
  write: "write_file",
  writefile: "write_file",
  edit: "edit",
  multiedit: "edit",
  replace: "edit",
  grep: "grep",
  search_file_content: "grep",
  // Codex's, Cursor's, Zed's, Cline's and Anthropic's text editor's names
  apply_patch: "edit",
  edit_file: "edit",
  str_replace: "edit",
  str_replace_editor: "edit",
  str_replace_based_edit_tool: "edit",
  multi_edit: "edit",
  search_replace: "edit",
  replace_in_file: "edit",
  write_to_file: "write_file",
  create_file: "write_file",
  execute_command: "bash",
  run_terminal_cmd: "bash",
  run_command: "bash",
  local_shell: "bash",
  terminal: "bash",
  shell_command: "bash",
};

/**
 * The built-in tool a name without a glob is a slip for: another agent's word for it (`write`,
 * `shell`) or one or two edits from its name (`writ_file`, `write_files`, `bsah`); undefined for a
 * built-in's own name and for a name near none.
 */
function slipFor(name: string): string | undefined {
  if (name.includes("*") || BUILTIN_TOOLS.includes(name)) return undefined;
  return heyToolName(name) ?? BUILTIN_TOOLS.find((t) => editDistance(name, t, true) <= (t.length <= 4 ? 1 : 2));
}

/** The built-in tool another agent's name for it means (`Read`, `apply_patch`, `shell`), undefined for a name hey has no word for. */
export const heyToolName = (name: string): string | undefined => (Object.hasOwn(SPELLINGS, name.toLowerCase()) ? SPELLINGS[name.toLowerCase()] : undefined);

/**
 * One entry, or why it is none: a phrase that follows the quoted entry in a message. `list`: the
 * list it is in, when it matters (a program's name in a deny list).
 */
export function readEntry(entry: string, list?: "allow" | "deny"): Entry | { error: string } {
  const e = entry.trim();
  if (!e) return { error: "is empty" };
  const bash = /^(bash)\s*:(.*)$/is.exec(e);
  if (bash) return bash[1] === "bash" ? readPattern(e, bash[2]!.trim(), list) : { error: `names no tool (tool names are lowercase); write "bash:${bash[2]}"` };
  const file = readFilePattern(e);
  if (file) return "error" in file ? file : { file };
  // `deny = ["rm"]` means the command: as a tool name it would match nothing, and rm would run (in
  // an allow list such a name fails closed — the commands are refused, and an MCP tool may bear it)
  if (list === "deny" && PROGRAMS.has(e) && !BUILTIN_TOOLS.includes(e))
    return { error: `names a program, not a tool; write "bash: ${e} *" to refuse its commands (an MCP tool of that name: "${e}*")` };
  // a slip for a built-in's name (`write`, `writ_file`) would deny nothing and fail open; in an
  // allow list it fails closed, the tool refused, and may be an MCP tool's name
  const meant = list === "deny" && TOOL_GLOB.test(e) ? slipFor(e) : undefined;
  if (meant)
    return { error: `is no built-in tool's name, so it would refuse an MCP tool so named only; write "${meant}" for hey's (for such an MCP tool: "${e}*")` };
  // Claude Code's `mcp__SERVER__TOOL` keeps its servers' and tools' case (`mcp__c__getTinyImage`): names match whatever their case
  const scoped = scopedProblem(e.toLowerCase());
  if (scoped) return { error: scoped };
  if (/^mcp__/i.test(e)) return { tool: e.toLowerCase() };
  if (TOOL_GLOB.test(e)) return { tool: e };
  return { error: misspelled(e, list) };
}

/**
 * Programs a deny entry names by mistake for a tool: those a deny list is written for. An MCP tool
 * of such a name is denied with a glob ("rm*"), which is never taken for the program.
 */
const PROGRAMS: ReadonlySet<string> = new Set(
  (
    "apt apt-get aws awk az brew bun bunx cargo cat chmod chown cp crontab curl dd deno docker eval exec find gcloud gh git go helm " +
    "kill kubectl killall ln ls make mkdir mkfs mv mysql nc node npm npx pip pip3 pkill pnpm psql python python3 rm rmdir rsync " +
    "scp sed sh shred ssh sudo systemctl tar tee terraform truncate wget xargs yarn zsh"
  ).split(" "),
);

/**
 * The word that ends an exact entry: `bash: npm run build $` allows that command and nothing after
 * it. `$` alone is no word a command is written with (the shell reads it as a plain `$`), and it
 * ends a line in a regular expression.
 */
export const EXACT_MARK = "$";

/** Whether an entry is an exact one (`bash: rm -rf build $`, `bash: npm test $ > log`), as the matcher reads it, for the lines that show it. */
export function isExact(entry: string): boolean {
  const read = readEntry(entry, "allow");
  return "pattern" in read && read.pattern.exact === true;
}

/** What an exact entry's `$` means, said beside it wherever hey shows one. */
export const EXACT_NOTE = "`$`: this command exactly, no words after it";

function readPattern(entry: string, text: string, list?: "allow" | "deny"): Entry | { error: string } {
  if (!text) return { error: 'has an empty pattern; "bash" alone covers every command' };
  const parsed = parseSyntax(text, "bash");
  if (!parsed.ok) return { error: `cannot be parsed: ${parsed.reason}` };
  const hidden = parsed.segments.find((s) => s.opaque || (list !== "deny" && s.unverified));
  if (hidden) return { error: `can never match: ${hidden.opaque ?? hidden.unverified}` };
  const top = parsed.segments.filter((s) => !s.nested);
  if (top.length !== 1) return { error: "is not one simple command; write one entry per command" };
  const seg = top[0]!;
  const marks = seg.words.flatMap((w, i) => (w.raw === EXACT_MARK ? [i] : []));
  const exact = marks.length > 0;
  // a `$` ending the last word is that word's, as it was before the exact mark (gluedMark says so)
  const problem = exact ? markProblem(seg.words.length, marks, list) : undefined;
  if (problem) return { error: problem };
  const words = [...seg.assigns, ...seg.words.slice(0, exact ? -1 : undefined)];
  const redirects = seg.redirects.filter((r) => !harmless(r));
  const star = (w: Word) => w.glob && w.text.includes("*");
  // without `*`, a pattern matches leading words; the exact mark says nothing may follow them
  if (!exact && !words.some(star) && !redirects.some((r) => star(r.target))) words.push(STAR);
  return { pattern: { entry, words, assigns: seg.assigns.length > 0, redirects, ...(exact ? { exact } : {}) } };
}

/**
 * What is wrong with an entry's exact mark (`$` at word positions `marks` of `count` words), if
 * anything: it ends a command's words, once; a deny entry refuses whatever follows its words anyway
 * (rules.ts openEnded), so one there would promise what it does not do.
 */
function markProblem(count: number, marks: number[], list?: "allow" | "deny"): string | undefined {
  if (count === 1) return "has only the exact mark `$`; write the command before it";
  if (marks.length > 1 || marks[0] !== count - 1) return "has `$` before its last word; the exact mark goes at the end, once";
  if (list === "deny") return "ends in the exact mark `$`, which a deny entry cannot have: it refuses whatever follows its words; drop the `$`";
  return undefined;
}

/**
 * What to warn of an allow entry whose last word ends in an unquoted `$` (`bash: npm test$`), or
 * undefined: that `$` is the word's, as it was before the exact mark, so the entry allows what
 * starts with those words; the exact mark without its space is as likely meant (`grep -c ^$` may
 * mean the `$`). Both are offered, either of which ends the warning. A warning, not an error: a
 * config that worked before the mark still starts.
 */
export function gluedMark(entry: string): string | undefined {
  const bash = /^bash\s*:(.*)$/is.exec(entry.trim());
  const text = bash?.[1]?.trim();
  if (!text || !("pattern" in readEntry(entry, "allow"))) return undefined;
  const parsed = parseSyntax(text, "bash");
  const last = parsed.ok ? parsed.segments.find((s) => !s.nested)?.words.at(-1) : undefined;
  if (!last || last.unknown || !/[^$]\$$/.test(last.raw) || /['"\\]/.test(last.raw) || !text.endsWith(last.raw)) return undefined;
  const before = text.slice(0, -last.raw.length);
  return `${JSON.stringify(entry)} ends in \`${last.raw}\`, whose \`$\` is the word's (it allows what starts with \`${text}\`): for the exact mark, a word of its own, write "bash: ${text.slice(0, -1)} $"; to keep this meaning without this warning, quote the word: "bash: ${before}'${last.raw}'"`;
}

/** What is wrong with an entry that is neither a tool glob nor "bash: PATTERN", and what to write instead. */
function misspelled(e: string, list?: "allow" | "deny"): string {
  const call = /^([A-Za-z_][\w-]*)\s*\((.*)\)$/s.exec(e); // Claude Code's Bash(git:*), Gemini CLI's run_shell_command(git)
  if (call) {
    const tool = heyToolName(call[1]!);
    // Gemini CLI's run_shell_command(git) is a prefix, as hey's entries are; Claude Code's Bash(git) is exact
    if (tool === "bash") return `is another agent's syntax; write "${bashEntry(call[2]!, /^bash$/i.test(call[1]!) ? list : "deny")}"`;
    if (tool && PATH_TOOLS.includes(tool) && call[2]!.trim()) return `is another agent's syntax; write "${tool}: ${call[2]!.trim()}"`;
    if (tool) return `is another agent's syntax; write "${tool}"`;
    return 'is another agent\'s syntax; write a tool name or "bash: PATTERN"';
  }
  const scoped = /^([A-Za-z0-9_-]+)\s*:(.*)$/s.exec(e);
  if (scoped) return scopedTool(scoped[1]!, scoped[2]!.trim());
  const spaced = /^bash\s+(\S.*)$/is.exec(e);
  if (spaced) return `misses the colon; write "bash: ${spaced[1]}"`;
  if (/^[A-Za-z0-9_*-]+$/.test(e)) {
    const tool = heyToolName(e);
    return tool
      ? `names no tool (tool names are lowercase); write "${tool}"`
      : `names no tool (tool names are lowercase: ${BUILTIN_TOOLS.join(", ")} or an MCP tool's name)`;
  }
  return 'is neither a tool name nor "bash: PATTERN"';
}

/**
 * What to write for `name: PATTERN` that is no rule: hey's name for the tool (`edit_file: src/**`
 * means "edit: src/**", `write: *.env` "write_file: *.env", `shell: ls *` "bash: ls *"); a tool that
 * takes no pattern (compress, an MCP tool) is allowed or refused whole.
 */
function scopedTool(name: string, pattern: string): string {
  const lower = name.toLowerCase();
  const tool = BUILTIN_TOOLS.includes(lower) ? lower : slipFor(lower);
  if (tool === "bash") return `gives \`${name}\` a pattern, which only bash takes ("bash: PATTERN"); write "bash: ${pattern}"`;
  if (tool && PATH_TOOLS.includes(tool)) return `gives \`${name}\` a pattern; hey's name for the tool is ${tool}: write "${tool}: ${pattern}"`;
  const given = `gives \`${name}\` a pattern, which only bash and the file tools take ("bash: PATTERN", "read_file: GLOB")`;
  if (tool) return `${given}; write "${tool}" for the whole tool`;
  return `${given}; write "${lower}" for the whole tool`;
}

/**
 * Claude Code's `Bash(RULE)` as hey's entry: `npm run test:*` (a prefix) is "bash: npm run test *";
 * `npm run build`, which there means that command only, is the exact "bash: npm run build $" in an
 * allow list, and stays open in a deny list, which refuses whatever follows its words.
 */
export function bashEntry(rule: string, list?: "allow" | "deny"): string {
  const r = rule.trim();
  if (/:\*$/.test(r)) return `bash: ${r.slice(0, -2).trimEnd()} *`;
  return list === "deny" || r.includes("*") || r.endsWith(` ${EXACT_MARK}`) ? `bash: ${r}` : `bash: ${r} ${EXACT_MARK}`;
}
