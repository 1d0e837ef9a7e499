// Extracts the real-world corpus's command list from two public sources (attribution and licenses in
// test/fixtures/real-world/README.md):
// - the example commands of tldr pages (https://github.com/tldr-pages/tldr, CC BY 4.0):
//   `{{placeholders}}` filled with plausible words; every page about the shell itself or a program
//   that runs programs kept whole, the rest sampled by a hash so the fixture stays a few hundred KB;
// - the shell snippets of mvdan/sh's interpreter tests (https://github.com/mvdan/sh,
//   interp/interp_test.go, BSD-3-Clause), which bash itself is checked against there.
// Deterministic: the same checkouts give the same list.
//   bun scripts/real-world/extract.ts TLDR_PAGES_DIR MVDAN_INTERP_TEST_GO > commands.jsonl
// Each line: {"c": COMMAND, "src": "tldr:common/find" or "mvdan-sh:interp"}. record.sh then records
// what dash and bash run for each.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const FOLDERS = ["common", "linux"];
/** Pages kept whole: the shell's own words and programs that run other programs (the checker's hard cases). */
const WHOLE = new Set(
  (
    "[ [[ alias bash bg builtin busybox case cat cd chroot command compgen complete coproc curl dash declare disown doas echo enable env eval exec " +
    "export fc fg find for function gdb getopts grep hash history if jobs kill let local ls mapfile nice nohup parallel printf pushd read readarray " +
    "readonly rm select set sg sh shift shopt source ssh-agent stdbuf sudo sudoedit test time timeout trap type typeset ulimit umask unset until " +
    "valgrind wait watch while xargs chrt fakeroot flock ionice logsave newgrp nsenter perf pkexec prlimit runuser script setarch setsid strace su " +
    "taskset unshare capsh dbus-run-session start-stop-daemon tmux git git-commit git-log git-status git-diff git-grep git-add git-config"
  ).split(" "),
);
/** Key presses for interactive programs (`<Ctrl c>`, `<q>`, `:wq<Enter>`): tldr's notation, not shell commands. */
const KEYS = /<(Ctrl|Alt|Shift|Meta|Cmd|Super|Enter|Esc|Space|Tab|Backspace|Delete|Del|Home|End|PageUp|PageDown|Arrow\w*|F\d+|[^\s<>])( [^<>]*)?>/;

/** One page in SAMPLE_EVERY of the others is kept (by a hash of its name). */
const SAMPLE_EVERY = 12;

/** Plausible words for the commonest placeholders; the others keep their own words. */
const WORDS: Record<string, string> = {
  "path/to/file": "notes.txt",
  "path/to/directory": "src",
  "path/to/file_or_directory": "docs",
  command: "make",
  username: "alice",
  user: "alice",
  password: "hunter2",
  package: "htop",
  package_name: "htop",
  url: "https://example.com/index.html",
  host: "example.com",
  hostname: "example.com",
  domain: "example.com",
  ip_address: "192.0.2.10",
  port: "8080",
  name: "demo",
  value: "42",
  pattern: "needle",
  search_pattern: "needle",
  regex: "^err",
  string: "hello",
  message: "hello",
  branch_name: "feature",
  version: "1.2.3",
  pid: "1234",
};

const hash = (s: string) => createHash("sha256").update(s).digest().readUInt32BE(0);

/** One placeholder's text: the first of `[-h|--help]`/`a|b` alternatives (the other one for odd `salt`), a list as two words, a path as a file name. */
function fill(inner: string, salt: number): string {
  const alternatives = /^\[(.*)\]$/.exec(inner)?.[1] ?? (/^[^ |]+(\|[^ |]+)+$/.test(inner) ? inner : undefined);
  if (alternatives) {
    const options = alternatives.split("|");
    return options[salt % 2 ? options.length - 1 : 0]!;
  }
  if (Object.hasOwn(WORDS, inner)) return WORDS[inner]!;
  if (inner.endsWith(" ..."))
    return inner
      .slice(0, -4)
      .split(" ")
      .map((w) => fill(w, salt))
      .join(" ");
  if (/^path\/to\/[^ ]+$/.test(inner))
    return inner.slice("path/to/".length).replace(/^(file|directory)([0-9]*)$/, (_, k, n) => (k === "file" ? `notes${n}.txt` : `src${n}`));
  return inner;
}

export function extract(pages: string): { c: string; src: string }[] {
  const out: { c: string; src: string }[] = [];
  const seen = new Set<string>();
  for (const folder of FOLDERS) {
    for (const file of readdirSync(join(pages, folder)).sort()) {
      const page = file.replace(/\.md$/, "");
      if (!WHOLE.has(page) && hash(page) % SAMPLE_EVERY !== 0) continue;
      for (const line of readFileSync(join(pages, folder, file), "utf8").split("\n")) {
        const m = /^`(.+)`$/.exec(line);
        if (!m || KEYS.test(m[1]!)) continue;
        const command = m[1]!.replace(/\{\{(.*?)\}\}(?!\})/g, (_, inner: string) => fill(inner, hash(m[1]!)));
        if (seen.has(command)) continue;
        seen.add(command);
        out.push({ c: command, src: `tldr:${folder}/${page}` });
      }
    }
  }
  return out;
}

const GO_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", "\\": "\\", '"': '"', "'": "'" };
const GO_STRING = /"(?:[^"\\\n]|\\.)*"|`[^`]*`/g;

/** A Go string literal's value (interpreted "…" or raw `…`). */
function unquote(literal: string): string {
  if (literal.startsWith("`")) return literal.slice(1, -1);
  return literal.slice(1, -1).replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[0-7]{3}|.)/g, (_, e: string) => {
    if (e[0] === "x" || e[0] === "u") return String.fromCharCode(parseInt(e.slice(1), 16));
    return /^[0-7]{3}$/.test(e) ? String.fromCharCode(parseInt(e, 8)) : (GO_ESCAPES[e] ?? e);
  });
}

/** The scripts of mvdan/sh's runTests and runTestsUnix tables: the first string (`"a" + "b"` joined) of each `{script, output}` entry. */
export function extractMvdan(goSource: string): { c: string; src: string }[] {
  const body = goSource.slice(goSource.indexOf("var runTests = []runTest{"), goSource.indexOf("var runTestsWindows"));
  const entry = new RegExp(`\\{\\s*(${GO_STRING.source})((?:\\s*\\+\\s*(?:${GO_STRING.source}))*)\\s*,`, "g");
  const seen = new Set<string>();
  const out: { c: string; src: string }[] = [];
  for (const m of body.matchAll(entry)) {
    const script = [m[1]!, ...(m[2] ?? "").matchAll(GO_STRING)].map((x) => unquote(typeof x === "string" ? x : x[0])).join("");
    if (!script.trim() || script.includes("\0") || seen.has(script)) continue; // a NUL cannot reach a shell's argv
    seen.add(script);
    out.push({ c: script, src: "mvdan-sh:interp" });
  }
  return out;
}

if (import.meta.main) {
  const [pages, interp] = process.argv.slice(2);
  if (!pages || !interp) throw new Error("usage: bun scripts/real-world/extract.ts TLDR_PAGES_DIR MVDAN_INTERP_TEST_GO");
  for (const entry of [...extract(pages), ...extractMvdan(readFileSync(interp, "utf8"))]) process.stdout.write(JSON.stringify(entry) + "\n");
}
