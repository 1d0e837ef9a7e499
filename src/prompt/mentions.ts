// `@path` mentions and stdin merged into a prompt (SPEC §2). Pure: the caller reads the files.
import type { Cut } from "../fs/prompt-text.ts";

const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"”’…]+$/;

/** CJK text: Chinese, Japanese and Korean write no space before a mention, or after one */
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303F\uFF00-\uFFEF`;
/** where an `@` starts a mention: the start, whitespace, CJK text, an opening bracket or quote (never a letter or digit: `a@b.com`) */
const BEFORE = String.raw`(?<=^|[\s(“‘${CJK}])`;
/** where a bare path ends, as at a space: CJK closing punctuation (`@a.txt，然后`), CJK text after a `.ext` (`@a.txt和`), an `@` after CJK text */
const PATH_END = String.raw`[，。、；：！？）」』】》〉〕］｝〗〙〛”’…—]|(?<=\.[A-Za-z0-9]+)[${CJK}]|(?<=[${CJK}])@`;

/**
 * An `@` after the start, whitespace, CJK text or an opening bracket (never inside a word:
 * `user@host` stays text), then a path in double quotes (`@"my notes.txt"`, the form Tab writes
 * for a name with spaces; `\"` there is a double quote, for a name with both kinds), in single quotes, or bare up to the next whitespace or PATH_END,
 * where a backslash keeps a space (`@my\ notes.txt`).
 */
const MENTION = new RegExp(String.raw`${BEFORE}@(?:"((?:\\"|[^"\n])+)"|'([^'\n]+)'|((?:\\ |(?!${PATH_END})\S)+))`, "gu");

/** A mention as found in a message. */
export interface Mention {
  /** the file it names, as the user means it: quotes and escapes gone, trailing punctuation removed */
  path: string;
  /** a file reference (`@src/a.ts`, `@README.md`) rather than a word (`@john`) */
  looksLikePath: boolean;
  /** as it is written in the message (`@"my notes.txt"`), what a whole `@` argument is compared with */
  written: string;
}

/**
 * The `@path` tokens of a message, in order of first appearance (MENTION). `looksLikePath` tells a
 * file reference from a word; either is expanded only when it names a file, else it stays literal
 * text.
 */
export function findMentions(text: string): Mention[] {
  const seen = new Set<string>();
  const out: Mention[] = [];
  for (const m of text.matchAll(MENTION)) {
    const quoted = m[1]?.replaceAll('\\"', '"') ?? m[2];
    const written = quoted !== undefined ? m[0] : m[0].replace(TRAILING_PUNCTUATION, "");
    const path = quoted ?? written.slice(1).replace(/\\ /g, " ");
    if (path.trim() === "" || seen.has(path)) continue;
    seen.add(path);
    out.push({ path, looksLikePath: /[/\\.~]/.test(path), written });
  }
  return out;
}

/**
 * How a path is written as a mention that findMentions reads back: `@a.ts`, `@"my notes.txt"`
 * (single quotes when it holds a double one; `@"it's \"q\".txt"` when it holds both).
 */
export function writeMention(path: string): string {
  if (!needsQuotes(path)) return `@${path}`;
  return spell(path, path.includes('"') && !path.includes("'") ? "'" : '"');
}

/**
 * `message` (the command line's words joined by spaces) with the whole argument `@path` written as
 * a mention (`@my notes.txt` → `@"my notes.txt"`), so that it is one mention and not `@my` and
 * words. Only a whole argument is rewritten: `@path` with a space or an end of `message` either side.
 */
export function quoteArgument(message: string, path: string): string {
  const token = `@${path}`;
  for (let at = message.indexOf(token); at >= 0; at = message.indexOf(token, at + 1)) {
    const end = at + token.length;
    if ((at === 0 || message[at - 1] === " ") && (end === message.length || message[end] === " "))
      return message.slice(0, at) + writeMention(path) + message.slice(end);
  }
  return message;
}

/** A name with a space or a quote, or one a bare mention would end early (`报告，最终版.docx`) or trim (`notes.`). */
const needsQuotes = (path: string) => /[\s"']/.test(path) || findMentions(`@${path}`)[0]?.path !== path;

/** How a mention being typed is spelled: in double or single quotes, with backslashed spaces, or bare. */
type Spelling = '"' | "'" | "\\" | "";

/** The mention being typed at the end of `line`: where its `@` is, the path so far and its spelling. */
function typedMention(line: string): { at: number; partial: string; spelling: Spelling } | undefined {
  const quoted = new RegExp(String.raw`${BEFORE}@(?:"((?:\\"|[^"\n])*)|'([^'\n]*))$`, "u").exec(line);
  if (quoted) return { at: quoted.index, partial: quoted[1]?.replaceAll('\\"', '"') ?? quoted[2]!, spelling: quoted[1] === undefined ? "'" : '"' };
  const bare = new RegExp(String.raw`${BEFORE}@((?:\\ |[^\s"'])*)$`, "u").exec(line);
  if (!bare) return undefined;
  return { at: bare.index, partial: bare[1]!.replace(/\\ /g, " "), spelling: bare[1]!.includes("\\ ") ? "\\" : "" };
}

/**
 * `path` (a directory ends in `/`, or `\` as Windows spells it) spelled as a mention; a quoted
 * directory stays open, so Tab can go on into it (and `"dir\"` would read as an escaped quote).
 */
function spell(path: string, spelling: Spelling): string {
  if (spelling === "\\") return `@${path.replaceAll(" ", "\\ ")}`;
  if (spelling === "") return `@${path}`;
  const inside = spelling === '"' ? path.replaceAll('"', '\\"') : path;
  return `@${spelling}${inside}${/[/\\]$/.test(path) ? "" : spelling}`;
}

/**
 * Tab completions of the `@path` being typed at the end of `line`, from `list` (the paths that
 * start with a partial path, directories ending in `/`). A name with a space or a quote is written
 * in double quotes (`@"my notes.txt"`), and then all of the candidates are, so they share the part
 * typed so far; a mention begun in quotes or with `\ ` goes on that way. The line editor replaces
 * the text after the line's last space or newline, so each candidate is that part of the mention.
 */
export function completeMention(line: string, list: (partial: string) => string[]): string[] {
  const typed = typedMention(line);
  if (!typed) return [];
  const paths = list(typed.partial);
  const quote = paths.some((p) => p.includes('"')) && !paths.some((p) => p.includes("'")) ? "'" : '"';
  const spelling = typed.spelling || (paths.some((p) => needsQuotes(p.replace(/\/$/, ""))) ? quote : "");
  const wordAt = Math.max(line.lastIndexOf(" "), line.lastIndexOf("\n")) + 1;
  const before = line.slice(typed.at, Math.max(typed.at, wordAt)); // the part of the mention the editor keeps
  const lead = line.slice(wordAt, typed.at); // CJK text before the `@` in the word the editor replaces (`请看@中`)
  return paths
    .map((p) => spell(p, spelling))
    .map((c) => afterPrefix(c, before))
    .filter((rest) => rest !== undefined)
    .map((rest) => lead + rest);
}

/**
 * What follows `prefix` in `text`, the two compared in one Unicode form (NFC): a name stored
 * decomposed (`re\u0301sume\u0301.md`, as macOS writes it) after a prefix typed composed; undefined when it does not start so.
 */
function afterPrefix(text: string, prefix: string): string | undefined {
  if (text.startsWith(prefix)) return text.slice(prefix.length);
  const want = prefix.normalize("NFC");
  if (!text.normalize("NFC").startsWith(want)) return undefined;
  for (let i = 0; i <= text.length; i++) if (text.slice(0, i).normalize("NFC") === want) return text.slice(i);
  return undefined;
}

/** A fenced block labelled with `label`, fenced longer than any backtick run inside `body`. */
export function fence(label: string, body: string): string {
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const bar = "`".repeat(longest + 1);
  return `${bar}${label}\n${body}${body.endsWith("\n") ? "" : "\n"}${bar}`;
}

export interface MentionedFile {
  path: string;
  text: string;
  cut?: Cut;
  /** how text that is not UTF-8 was read: `2 bytes are not UTF-8, shown as …`, `read as UTF-16 LE` */
  encoding?: string;
}

const encodingNote = (note: string | undefined) => (note ? `\n(${note})` : "");

/**
 * message, then each mentioned file, then stdin, separated by blank lines (SPEC §2); a cut says so.
 * A stdin that came empty or blank adds nothing: a program that starts hey with a pipe it never
 * writes (Node's spawnSync, Python's stdin=PIPE, an editor's plugin) means the message alone, and a
 * note that "there is no input" would tell the model of a coding agent not to go and look.
 */
export function buildPrompt(message: string, files: MentionedFile[], stdin?: { text: string; cut?: Cut; encoding?: string }): string {
  const parts: string[] = [];
  if (message.trim() !== "") parts.push(message.trim());
  for (const f of files) {
    const note = f.cut ? `\n(truncated: showing the first ${f.cut.shown} of ${f.cut.of} bytes; read_file can read the rest)` : "";
    parts.push(fence(f.path, f.text) + note + encodingNote(f.encoding));
  }
  if (stdin !== undefined && stdin.text.trim() !== "") {
    const note = stdin.cut ? `\n(truncated: showing the first ${stdin.cut.shown} bytes of stdin; the rest was left out)` : "";
    parts.push(fence("stdin", stdin.text) + note + encodingNote(stdin.encoding));
  }
  return parts.join("\n\n");
}

/** The stderr line for a cut input: `@big.log` or `stdin`, what was kept, the key that sets it. */
export function cutNotice(what: string, cut: Cut): string {
  if (cut.of === undefined) return `${what}: only the first ${size(cut.shown)} went into the prompt ([input] max_bytes); the rest was left out`;
  return `${what}: only the first ${size(cut.shown)} of ${size(cut.of)} went into the prompt ([input] max_bytes)`;
}

const size = (bytes: number) =>
  bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
