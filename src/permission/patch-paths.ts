// The files a patch writes, when the checker can read the patch (x2 #3, #8): `git apply`, `git am`
// and GNU `patch` given a heredoc or a here-string write the paths its `---`/`+++` lines, `diff
// --git a/X b/Y`, `rename to`/`copy to` (and patch's `Index:`, a context diff's `***`) name, after
// the leading directories `-p` strips and with the directory `--directory` puts in front, from
// where `git -C` leads (git am: from the work tree's top, where it applies from any folder). Those are
// judged as the words of the command are (control-arguments.ts): `git apply <<EOF` creating
// `.hey/config.toml`, or with `--unsafe-paths` `../home/.config/hey/config.toml`, is refused as `cp x
// .hey/config.toml` is. A patch the checker cannot read (a file, a pipe) under `--unsafe-paths`
// could write anywhere: "cannot verify". Without it git writes only below where it runs, and no
// path in `.git`, which control-cwd.ts judges as a tree it changes. GNU patch refuses only `..` and
// absolute names, so one given a patch hey cannot read is told `unread` (control-arguments.ts refuses
// it where a git directory is, r1 #12); its backup names are joined text (gnuPatch). Pure.
import { decided } from "./control-files.ts";
import { readGit } from "./git.ts";
import { program } from "./match.ts";
import type { Segment, Word } from "./shell-model.ts";
import { stdinSources } from "./shell-stdin.ts";
import { gitDirectories } from "./git-targets.ts";
import { patchDryRun } from "./tree-changes.ts";

/**
 * A file a command writes that none of its words names by itself: the word to judge, and what it is, for the refusal;
 * `top`: git am's, which it writes from the top of the work tree that the directory `at` (relative to where it runs) is in, as `path`.
 */
export type Named = { word: Word; note: string; top?: { at: string; path: string } };
/** What a segment writes beyond its words: those names, or why it could write anywhere. */
/** `unread`: GNU patch's patch is one hey cannot read (a file, a pipe), run from `directory` (its `-d`) where it runs. */
export type Beyond = { names: Named[]; unread?: { directory?: string } } | { unknown: string; word: string };

/** git apply's and am's options that take the next word as their value (long names by any prefix git takes). */
const GIT_VALUES = ["directory", "exclude", "include", "whitespace", "build-fake-ancestor", "patch-format", "quoted-cr", "empty", "gpg-sign"];
/** GNU patch's options that take a value: short letters and long names. */
const PATCH_SHORT = "BDFVYdgiopruz";
const PATCH_LONG = [
  "prefix",
  "basename-prefix",
  "suffix",
  "directory",
  "input",
  "output",
  "strip",
  "fuzz",
  "define",
  "get",
  "quoting-style",
  "reject-file",
  "reject-format",
  "read-only",
  "version-control",
];
/** GNU patch's long options that take no value, for getopt's unique beginnings (`--b` is ambiguous, `--ba` too, `--bas` is --basename-prefix). */
const PATCH_FLAGS = [
  "backup",
  "backup-if-mismatch",
  "no-backup-if-mismatch",
  "batch",
  "binary",
  "context",
  "dry-run",
  "ed",
  "force",
  "forward",
  "follow-symlinks",
  "help",
  "ignore-whitespace",
  "merge",
  "normal",
  "posix",
  "quiet",
  "remove-empty-files",
  "reverse",
  "set-time",
  "set-utc",
  "silent",
  "unified",
  "verbose",
  "version",
];
/** git apply's options after which it writes no file of the work tree, and those that make it write them again. */
const INDEX_ONLY = ["check", "stat", "numstat", "summary", "cached"];
const WRITING = ["apply", "index"];
const MAX_PATHS = 4000; // names a patch may write (patch without `-p`: two of each path) judged one by one; past them, not read

const word = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });

/** The patch a segment's program applies and the names it writes, or undefined for another program. */
export function patchWrites(seg: Segment, segments: Segment[] = [seg]): Beyond | undefined {
  const first = seg.words[0];
  if (!first || !decided(first)) return undefined;
  const name = program(first.text);
  if (name === "patch") return gnuPatch(seg, segments);
  if (name !== "git") return undefined;
  const at = readGit(seg.words)?.sub;
  const sub = at === undefined ? undefined : seg.words[at]!;
  if (!sub || !decided(sub) || (sub.text !== "apply" && sub.text !== "am")) return undefined;
  const read = gitOptions(seg.words.slice(at! + 1));
  if ("unknown" in read) return read;
  const { strip, directory, files, unsafe, only } = read;
  // `git apply --check`, `--stat`, `--cached` (without `--apply`, `--index`) write no file of the work tree
  if (sub.text === "apply" && only) return { names: [] };
  const text = files ? undefined : patchText(seg);
  if (text === undefined || typeof text === "object") {
    if (!unsafe) return { names: [] };
    const why = typeof text === "object" ? text.why : "a patch file";
    return { unknown: `\`--unsafe-paths\` lets a patch hey cannot read (${why}) write outside the work tree`, word: "--unsafe-paths" };
  }
  // git writes them from the directory its `-C`s lead to (`git -C sub apply` of `../.hey/config.toml`)
  const { chdir } = gitDirectories(seg.words);
  const away = chdir.find((w) => !decided(w));
  if (away) return { unknown: "its `-C` is a directory known only at run time", word: away.raw };
  const from = chdir.reduce((at, w) => (w.text.startsWith("/") || !at ? w.text : `${at.replace(/\/$/, "")}/${w.text}`), "");
  const under = [from, directory].filter(Boolean).join("/") || undefined;
  const note = `a path the patch given to git ${sub.text} writes`;
  const found = named(patchPaths(text, false), strip ?? 1, under, note);
  if (sub.text !== "am" || "unknown" in found) return found;
  // git am applies from the top of the work tree, wherever in it it runs: each path judged from there too
  const tops = named(patchPaths(text, false), strip ?? 1, directory, note);
  return "unknown" in tops ? tops : { names: [...found.names, ...tops.names.map((n) => ({ ...n, top: { at: from, path: n.word.text } }))] };
}

/** git apply's and am's words: `-p`, `--directory`, patch files named (or `-`, stdin), `--unsafe-paths`; unknown where a value only the run knows decides where it writes. */
function gitOptions(words: Word[]): { strip?: number; directory?: string; files: boolean; unsafe: boolean; only: boolean } | { unknown: string; word: string } {
  const given = new Set<string>();
  let strip: number | undefined;
  let directory: string | undefined;
  let files = false;
  let unsafe = false;
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    const t = w.text;
    if (!decided(w)) {
      if (!t.startsWith("-") && !w.raw.startsWith("-")) {
        files = true; // a patch file named at run time: not read
        continue;
      }
      return { unknown: "an option known only at run time could move where the patch writes", word: w.raw };
    }
    if (t === "--") {
      files ||= words.slice(k + 1).some((x) => x.text !== "-");
      break;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const long = t.slice(2, eq < 0 ? undefined : eq);
      const value = eq < 0 ? words[k + 1] : { ...w, text: t.slice(eq + 1) };
      for (const flag of [...INDEX_ONLY, ...WRITING]) if (long.length >= 3 && flag.startsWith(long)) given.add(flag);
      if (long.length >= 3 && "unsafe-paths".startsWith(long)) unsafe = true;
      else if (long.length >= 2 && "directory".startsWith(long)) {
        if (!value || !decided(value)) return { unknown: "its `--directory` is known only at run time", word: w.raw };
        directory = value.text;
      }
      if (eq < 0 && GIT_VALUES.some((v) => v.startsWith(long) && long.length >= 2)) k++;
    } else if (t.startsWith("-") && t.length > 1) {
      // a cluster of letters; `-p` and `-C` take a value, attached or the next word
      const at = t.search(/[pC]/);
      if (at < 0) continue;
      const attached = t.slice(at + 1);
      const value = attached || words[++k]?.text;
      if (t[at] === "p") {
        if (value === undefined || !/^\d+$/.test(value)) return { unknown: "its `-p` is known only at run time", word: w.raw };
        strip = Number(value);
      }
    } else if (t !== "-") files = true;
  }
  const only = INDEX_ONLY.some((f) => given.has(f)) && !WRITING.some((f) => given.has(f));
  return { ...(strip !== undefined ? { strip } : {}), ...(directory !== undefined ? { directory } : {}), files, unsafe, only };
}

/**
 * GNU patch given its patch on stdin: the names it writes (`-p`/`--strip`, `-d`/`--directory`);
 * without `-p`, the whole name or its last part (patch(1)). With them the backup copies it makes
 * (`-b`, and without it when a hunk applies with fuzz): `-B PREFIX` + the name, its directory +
 * `-Y PREFIX` + its last part, + `-z SUFFIX` (or `SIMPLE_BACKUP_SUFFIX`), joined as text, so `-B .g`
 * of `it/hooks/pre-commit` moves the original to `.git/hooks/pre-commit` (r1 #1): each judged as a
 * name the command gives. Given those and a patch hey cannot read: "cannot verify".
 */
function gnuPatch(seg: Segment, segments: Segment[]): Beyond {
  // `--dry-run` writes nothing, backups neither
  if (patchDryRun(seg.words.slice(1).map((w) => (decided(w) ? w.text : "*")))) return { names: [] };
  let strip: number | undefined;
  let directory: string | undefined;
  let operands = 0;
  let unread = false;
  const backup: { prefix?: Word; base?: Word; suffix?: Word } = {};
  const words = seg.words.slice(1);
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    const t = w.text;
    if (!decided(w)) {
      if (t.startsWith("-") || w.raw.startsWith("-")) return { unknown: "an option known only at run time could move where the patch writes", word: w.raw };
      operands++;
      continue;
    }
    if (t === "--") {
      operands += words.length - k - 1;
      break;
    }
    let option: string | undefined;
    let value: Word | undefined;
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const long = t.slice(2, eq < 0 ? undefined : eq);
      // getopt takes a unique beginning among all of patch's long names (`--pre` is --prefix, `--b` ambiguous)
      const found = [...PATCH_LONG, ...PATCH_FLAGS].filter((n) => n.startsWith(long));
      const name = PATCH_LONG.includes(long) ? long : found.length === 1 && PATCH_LONG.includes(found[0]!) ? found[0] : undefined;
      if (!name) continue;
      value = eq < 0 ? words[++k] : { ...w, text: t.slice(eq + 1), raw: w.raw.slice(w.raw.indexOf("=") + 1) };
      option = { strip: "p", directory: "d", input: "i", prefix: "B", "basename-prefix": "Y", suffix: "z" }[name] ?? name;
    } else if (t.startsWith("-") && t.length > 1) {
      const at = [...t.slice(1)].findIndex((c) => PATCH_SHORT.includes(c));
      if (at < 0) continue;
      option = t[at + 1];
      const attached = t.slice(at + 2);
      value = attached ? { ...w, text: attached, raw: attached } : words[++k];
    } else {
      operands++;
      continue;
    }
    if (option === "i") unread = true; // the patch is read from a file: not read here
    if (option === "p") strip = value && decided(value) && /^\d+$/.test(value.text) ? Number(value.text) : undefined;
    if (option === "d") directory = value?.text;
    if (option === "B" || option === "Y" || option === "z") backup[option === "B" ? "prefix" : option === "Y" ? "base" : "suffix"] = value;
  }
  // the environment's suffix, set for this command or before it in the same call (`export SIMPLE_BACKUP_SUFFIX=…`)
  const env = [...seg.assigns, ...segments.flatMap((s) => [...s.assigns, ...s.words])].filter((w) => /^SIMPLE_BACKUP_SUFFIX=/.test(w.text)).pop();
  backup.suffix ??= env && { ...env, text: env.text.slice(env.text.indexOf("=") + 1), raw: env.raw.slice(env.raw.indexOf("=") + 1) };
  const given = [backup.prefix, backup.base, backup.suffix].filter((w): w is Word => w !== undefined);
  const away = given.find((w) => !decided(w));
  if (away) return { unknown: "its backup file's name is joined from text known only at run time", word: away.raw };
  // `patch ORIG PATCHFILE`: the patch is a file
  const text = unread || operands >= 2 ? undefined : patchText(seg);
  if (text === undefined || typeof text === "object")
    return given.length
      ? { unknown: "its backup file's name is joined from the names of a patch hey cannot read", word: given[0]!.raw }
      : { names: [], unread: { directory } };
  const backups = given.length ? (rel: string) => backupNames(rel, backup) : undefined;
  return named(patchPaths(text, true), strip, directory, "a path the patch given to patch writes", backups);
}

/** The backup names GNU patch may make of `rel` (see gnuPatch): prefix + directory + basename prefix + last name + suffix, with and without the suffix where a prefix is given. */
function backupNames(rel: string, b: { prefix?: Word; base?: Word; suffix?: Word }): string[] {
  const slash = rel.lastIndexOf("/") + 1;
  const joined = (suffix: string) => `${b.prefix?.text ?? ""}${rel.slice(0, slash)}${b.base?.text ?? ""}${rel.slice(slash)}${suffix}`;
  const suffix = b.suffix?.text ?? ".orig";
  return b.prefix || b.base ? [joined(""), joined(suffix)] : [joined(suffix)];
}

/** The text on the segment's stdin when the checker sees it whole: a heredoc (its literal body; an expanding one as written, its paths checked for expansions) or a known here-string. */
function patchText(seg: Segment): string | { why: string } | undefined {
  if (seg.piped) return { why: "a pipe" };
  const sources = stdinSources(seg);
  if (!sources.length) return undefined;
  if (sources.length > 1) return { why: "more than one input" };
  const r = sources[0]!;
  if (r.body !== undefined) return r.op.endsWith("<<-") ? r.body.replace(/^\t+/gm, "") : r.body;
  if (r.op.endsWith("<<<")) return decided(r.target) ? `${r.target.text}\n` : { why: "a here-string known only at run time" };
  return { why: `\`${r.target.raw}\`` };
}

/** The paths a patch's headers name, as written (git's quoted names unquoted); `full` for those `-p` does not strip (`rename to`, `copy from`). */
export function patchPaths(text: string, gnu: boolean): { path: string; full: boolean }[] {
  const out: { path: string; full: boolean }[] = [];
  for (const line of text.split("\n")) {
    const l = line.replace(/\r$/, "");
    let m = /^(?:---|\+\+\+) (.+)$/.exec(l) ?? (gnu ? /^(?:Index:|\*\*\*) (.+)$/.exec(l) : null);
    if (m && !/^\*\*\* \d+(,\d+)? \*\*\*\*/.test(l)) {
      // a timestamp after a tab (diff -u's), or git's trailing tab after a name with a space
      const path = unquote(m[1]!.split("\t")[0]!.trim());
      if (path && path !== "/dev/null") out.push({ path, full: false });
      continue;
    }
    m = /^(?:rename|copy) (?:from|to) (.+)$/.exec(l);
    if (m) {
      out.push({ path: unquote(m[1]!), full: true });
      continue;
    }
    m = /^diff --git (.+)$/.exec(l);
    if (m) {
      const rest = m[1]!;
      const quoted = rest.match(/"(?:[^"\\]|\\.)*"|\S+/g) ?? [];
      // unquoted names with spaces: `a/x y b/x y` splits at the middle ` b/`
      const parts = quoted.length === 2 ? quoted : halves(rest);
      for (const p of parts) out.push({ path: unquote(p), full: false });
    }
  }
  return out;
}

/** `a/x y b/x y` as git reads it: two equal names after their prefixes; else every split at a ` ` (each judged). */
function halves(rest: string): string[] {
  const mid = (rest.length - 1) / 2;
  if (Number.isInteger(mid) && rest[mid] === " ") return [rest.slice(0, mid), rest.slice(mid + 1)];
  return rest.split(" ");
}

/** A git name in C quotes (`"b/a\tb"`, octal bytes as UTF-8), or the text as it is. */
function unquote(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  const escapes: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const oct = /^[0-7]{3}/.exec(body.slice(i + 1))?.[0];
    if (oct) {
      bytes.push(parseInt(oct, 8));
      i += 3;
    } else bytes.push(escapes[body[++i] ?? ""] ?? 92);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The paths as words, `strip` leading directories off each (undefined: none, or all but the last), `directory` in front; unknown where one is spelled with what only the run knows. */
function named(
  paths: { path: string; full: boolean }[],
  strip: number | undefined,
  directory: string | undefined,
  note: string,
  backups?: (rel: string) => string[],
): Beyond {
  const out = new Map<string, Named>();
  for (const { path, full } of paths) {
    // an expanding heredoc's `$X`, a backquote: the name is the run's
    if (/[$`]/.test(path)) return { unknown: "a name in the patch is known only at run time", word: path };
    const parts = path.split("/");
    // `-p N` takes N leading names off (an absolute name's first is empty): what is left is below where the patch is applied
    // without `-p` GNU patch takes the name's last part, or the whole name where its directories exist
    const kept = full ? [parts] : strip === undefined ? [parts, parts.slice(-1)] : [parts.slice(strip)];
    for (const k of kept) {
      const rel = k.filter(Boolean).join("/");
      if (!rel) continue;
      const text = k[0] === "" ? `/${rel}` : directory ? `${directory.replace(/\/$/, "")}/${rel}` : rel;
      out.set(text, { word: word(text), note });
      // a backup's name: from where the patch is applied, unless its prefix is absolute (`-B /x/`, `-B ~/x`, which the shell expanded)
      for (const b of backups?.(k[0] === "" ? `/${rel}` : rel) ?? []) {
        const name = /^[/~]/.test(b) || !directory ? b : `${directory.replace(/\/$/, "")}/${b}`;
        out.set(name, { word: word(name), note: "the name of the backup copy patch makes of a path the patch writes" });
      }
    }
    if (out.size > MAX_PATHS) return { unknown: `the patch names more than ${MAX_PATHS} paths`, word: path };
  }
  return { names: [...out.values()] };
}
