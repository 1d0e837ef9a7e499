// Issue 9's proof: the generated corpus runs under real dash and bash with PATH holding only logging
// stubs, and for every command the checker allows — for the shell's own reading and for "sh" (both
// readings), under a narrow allow list, a broad one and a deny list — each program the shell
// actually executed was seen by the checker (a segment with the same name and words) and is
// allowed by the policy on its own argv. It also checks that the corpus is live: in each class,
// commands the checker refuses did run the payload in at least one shell.
import { expect, test } from "bun:test";
import { availableParallelism } from "node:os";
import { allowMatch, denyMatch } from "../../src/permission/match.ts";
import { compileRules, decide, type CompiledRules, type PermissionRules } from "../../src/permission/rules.ts";
import { parseCommand, type Reading } from "../../src/permission/shell-commands.ts";
import type { Segment, Word } from "../../src/permission/shell-words.ts";
import { WRAPPERS } from "../../src/permission/wrappers.ts";
import { createStubs, type Shell } from "../helpers/shell-stubs.ts";
import { generateCorpus, PAYLOAD, type Case } from "./corpus.ts";
import { testNeeding } from "../helpers/tools.ts";

const BROAD = ["ls", "cat *", "echo *", "printf *", "git *", "head *", "grep *", "sort *", "true", ": *", "test *", "[ *", "read *", "declare *", "unset *", "let *", "mapfile *", "hash *"];
const BROAD_WRAPPERS = ["set *", "x=*", "y=*", "PS4=*", "alias *", "env *", "timeout *", "nice *", "nohup *", "stdbuf *", "xargs *", "find *", "flock *", "setsid *", "prlimit *", "setpriv *", "setarch *"];
const BROAD_MORE = ["linux64 *", "taskset *", "ionice *", "chrt *", "choom *", "script *", "time *", "command *", "exec *", "eval *", "trap *", "sh *", "bash *", "dash *", "cd *"];
const POLICIES: Record<string, PermissionRules> = {
  narrow: { allow: ["bash: ls", "bash: cat *", "bash: echo *"], deny: [] },
  broad: { allow: [...BROAD, ...BROAD_WRAPPERS, ...BROAD_MORE].map((p) => `bash: ${p}`), deny: [] },
  deny: { allow: [], deny: [`bash: ${PAYLOAD} *`, "bash: rm *"] },
};
const SHELLS: Shell[] = ["dash", "bash"];
// one dash and one bash run per pair of cores: the runs are fork/exec-bound
const WORKERS = Math.max(1, Math.floor(availableParallelism() / 2));
/** Programs whose own segment holds only their part of the argv (the command they run is logged on its own). */
const RUNNERS = new Set([...Object.keys(WRAPPERS), "sh", "bash", "dash", "find", "xargs", "watch"]);

/**
 * Commands run for real only when they cannot reach a real program or file outside the test's
 * directories: no absolute path but /dev/null and /dev/stdin (`~` is the test's HOME), no `..`, nothing that resets PATH
 * (`env -i`, `PATH=`, `command -p`). The others are still checked by the unit tables.
 */
const UNSAFE = /(^|[^\w./~-])\/(?!dev\/(null|stdin)\b)|\.\.|env -[i-]|\bPATH=|command -p|-u PATH/;

const compiled = Object.fromEntries(
  Object.entries(POLICIES).map(([name, lists]) => {
    const { errors } = compileRules(lists);
    if (errors.length) throw new Error(errors.join("\n"));
    const per = (shell: string) => compileRules(lists, shell).rules;
    return [name, { sh: per("sh"), dash: per("dash"), bash: per("bash") }] as const;
  }),
);

/** Does a segment's argument list match the real one? Unknown and glob words stand for any number of words. */
function wordsMatch(words: Word[], args: string[], home: string): boolean {
  const value = (w: Word) => (w.raw.startsWith("~") ? home + w.text.slice(1) : w.text);
  const memo = new Map<string, boolean>();
  const from = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    if (memo.has(key)) return memo.get(key)!;
    let ok: boolean;
    if (i === words.length) ok = j === args.length;
    else if (words[i]!.unknown || words[i]!.glob) ok = from(i + 1, j) || (j < args.length && from(i, j + 1));
    else ok = j < args.length && value(words[i]!) === args[j] && from(i + 1, j + 1);
    memo.set(key, ok);
    return ok;
  };
  return from(0, 0);
}

/** Was the executed `argv` seen by the checker as one of `segments`? */
function seen(argv: string[], segments: Segment[], home: string): boolean {
  const [name, ...args] = argv;
  return segments.some((s) => {
    const first = s.words[0];
    if (!first || first.unknown || first.text.slice(first.text.lastIndexOf("/") + 1) !== name) return false;
    return RUNNERS.has(name!) || wordsMatch(s.words.slice(1), args, home);
  });
}

/** Is `argv`, as a command of known words, allowed by `rules` on its own? */
function permitted(argv: string[], rules: CompiledRules): boolean {
  const words = argv.map((text) => ({ text, raw: text, unknown: false, glob: false }));
  const seg: Segment = { raw: argv.join(" "), assigns: [], words, redirects: [], nested: false };
  if (rules.deny.patterns.some((p) => denyMatch(seg, p) === "yes")) return false;
  return !rules.allow || rules.allow.patterns.some((p) => allowMatch(seg, p));
}

test("the corpus is generated with at least 300 commands in every class of the issue", () => {
  const corpus = generateCorpus();
  expect(corpus.length).toBeGreaterThanOrEqual(300);
  const classes = new Set(corpus.map((c) => c.cls));
  for (const cls of ["continuation", "dialect", "grammar", "subscript", "deny", "wrappers", "bypass", "usable"]) expect(classes.has(cls)).toBe(true);
});

// this test runs commands under real shells (.ci/run installs them): skipped, saying so, without one
testNeeding(["dash", "bash"])("every program dash and bash run for a command the checker allows was seen and is allowed", async () => {
  const corpus = generateCorpus();
  const allowedAs = (c: Case, reading: Reading) => Object.values(compiled).some((rules) => decide("bash", { command: c.command }, rules[reading]).allowed);
  // a shell runs what the property is about (commands allowed when read as that shell or as sh),
  // and the first spelling of each template, to show that the classes are live
  const jobs = corpus.flatMap((c) => (UNSAFE.test(c.command) ? [] : SHELLS.filter((shell) => c.first || allowedAs(c, shell) || allowedAs(c, "sh")).map((shell) => ({ c, shell }))));
  const stubs = createStubs(WORKERS, (name) => Bun.which(name));
  try {
    const runs = await Promise.all(jobs.map(async ({ c, shell }) => ({ c, shell, execs: await stubs.run(shell, c.command) })));
    const violations: string[] = [];
    const live = new Map<string, Set<string>>(); // class → refused commands that did run the payload
    let checked = 0;
    for (const { c, shell, execs } of runs) {
      for (const reading of [shell, "sh"] as Reading[]) {
        const parsed = parseCommand(c.command, reading);
        for (const [name, rules] of Object.entries(compiled)) {
          if (!decide("bash", { command: c.command }, rules[reading]).allowed) {
            if (execs.some((e) => e[0] === PAYLOAD)) live.set(c.cls, (live.get(c.cls) ?? new Set()).add(c.command));
            continue;
          }
          checked++;
          for (const argv of execs) {
            const ok = parsed.ok && seen(argv, parsed.segments, stubs.home) && permitted(argv, rules[reading]);
            if (!ok) violations.push(`${shell} ran ${JSON.stringify(argv)} for ${JSON.stringify(c.command)} (${c.cls}), allowed by ${name} read as ${reading}`);
          }
        }
      }
    }
    expect(violations).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(300);
    for (const cls of ["continuation", "dialect", "grammar", "subscript", "deny", "wrappers"]) expect({ cls, live: (live.get(cls)?.size ?? 0) > 0 }).toEqual({ cls, live: true });
  } finally {
    stubs.cleanup();
  }
}, 120_000);
