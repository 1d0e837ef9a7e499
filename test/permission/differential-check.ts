// The property the differential tests prove against real dash and bash (issues 9 and 24): for every
// command the checker allows — read as the shell that ran it, and as /bin/sh (both readings) —
// each program the shell executed was seen by the checker (a segment with the same name and words)
// and is allowed by the policy on its own argv. Shared by differential.test.ts (the grammar corpus)
// and differential-runtime.test.ts (words decided at run time, hidden assignments, option tables).
import { denyMatch } from "../../src/permission/deny.ts";
import { allowMatch } from "../../src/permission/match.ts";
import { compileRules, decide, type CompiledRules, type PermissionRules } from "../../src/permission/rules.ts";
import { parseCommand, type Reading } from "../../src/permission/shell-commands.ts";
import type { Segment, Word } from "../../src/permission/shell-model.ts";
import { WRAPPERS } from "../../src/permission/wrappers.ts";
import type { Shell } from "../helpers/shell-stubs.ts";
import { PAYLOAD } from "./corpus.ts";

const BROAD = [
  "ls",
  "cat *",
  "echo *",
  "printf *",
  "git *",
  "head *",
  "grep *",
  "sort *",
  "true",
  ": *",
  "test *",
  "[ *",
  "read *",
  "declare *",
  "unset *",
  "let *",
  "mapfile *",
  "hash *",
];
const BROAD_WRAPPERS = [
  "set *",
  "x=*",
  "y=*",
  "PS4=*",
  "alias *",
  "env *",
  "timeout *",
  "nice *",
  "nohup *",
  "stdbuf *",
  "xargs *",
  "find *",
  "flock *",
  "setsid *",
  "prlimit *",
  "setpriv *",
  "setarch *",
];
const BROAD_MORE = [
  "linux64 *",
  "taskset *",
  "ionice *",
  "chrt *",
  "choom *",
  "script *",
  "time *",
  "command *",
  "exec *",
  "eval *",
  "trap *",
  "sh *",
  "bash *",
  "dash *",
  "cd *",
];
const BROAD_ISSUE_24 = ["jobs *", "sudo *", "export *", "typeset *", "readonly *", "getopts *", "PATH=*", "HOME=*", "IFS=*", "f", "local *"];

export const POLICIES: Record<string, PermissionRules> = {
  narrow: { allow: ["bash: ls", "bash: cat *", "bash: echo *"], deny: [] },
  broad: { allow: [...BROAD, ...BROAD_WRAPPERS, ...BROAD_MORE, ...BROAD_ISSUE_24].map((p) => `bash: ${p}`), deny: [] },
  deny: { allow: [], deny: [`bash: ${PAYLOAD} *`, "bash: rm *"] },
};

export const SHELLS: Shell[] = ["dash", "bash"];
/** Programs whose own segment holds only their part of the argv (the command they run is logged on its own). */
const RUNNERS = new Set([...Object.keys(WRAPPERS), "sh", "bash", "dash", "find", "xargs", "watch"]);

export const compiled = Object.fromEntries(
  Object.entries(POLICIES).map(([name, lists]) => {
    const { errors } = compileRules(lists);
    if (errors.length) throw new Error(errors.join("\n"));
    const per = (shell: string) => compileRules(lists, shell).rules;
    return [name, { sh: per("sh"), dash: per("dash"), bash: per("bash") }] as const;
  }),
);

/** Is `command` allowed, read as `reading`, by any policy? */
export const allowedAs = (command: string, reading: Reading) => Object.values(compiled).some((rules) => decide("bash", { command }, rules[reading]).allowed);

/** Does a segment's argument list match the real one? Unknown and glob words stand for any number of words. */
function wordsMatch(words: Word[], args: string[], home: string): boolean {
  const value = (w: Word) => (w.raw.startsWith("~") ? home + w.text.slice(1) : w.text);
  const memo = new Map<string, boolean>();
  const from = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    if (memo.has(key)) return memo.get(key)!;
    let ok: boolean;
    if (i === words.length) ok = j === args.length;
    else if (words[i]!.unknown || words[i]!.glob || words[i]!.anyValue) ok = from(i + 1, j) || (j < args.length && from(i, j + 1));
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

export interface Run {
  command: string;
  cls: string;
  shell: Shell;
  execs: string[][];
}

/**
 * Checks the runs: returns the violations (an allowed command that executed a program the checker
 * did not see and allow), how many (command, reading, policy) decisions allowed something, and per
 * class the refused commands that did run the payload (the class is live: its attacks work).
 */
export function judge(runs: Run[], home: string): { violations: string[]; checked: number; live: Map<string, Set<string>> } {
  const violations: string[] = [];
  const live = new Map<string, Set<string>>();
  let checked = 0;
  for (const { command, cls, shell, execs } of runs) {
    for (const reading of [shell, "sh"] as Reading[]) {
      const parsed = parseCommand(command, reading);
      for (const [name, rules] of Object.entries(compiled)) {
        if (!decide("bash", { command }, rules[reading]).allowed) {
          if (execs.some((e) => e[0] === PAYLOAD)) live.set(cls, (live.get(cls) ?? new Set()).add(command));
          continue;
        }
        checked++;
        for (const argv of execs) {
          const ok = parsed.ok && seen(argv, parsed.segments, home) && permitted(argv, rules[reading]);
          if (!ok) violations.push(`${shell} ran ${JSON.stringify(argv)} for ${JSON.stringify(command)} (${cls}), allowed by ${name} read as ${reading}`);
        }
      }
    }
  }
  return { violations, checked, live };
}
