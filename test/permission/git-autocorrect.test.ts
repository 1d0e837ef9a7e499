// x56 finding 2: the commands git may run for a misspelt subcommand under help.autocorrect, by git's
// own rule (help.c, levenshtein.c), against what the installed git suggests for the same typos. With
// help.autocorrect = 0 git names its single guess and runs nothing; that guess is the one it runs
// under `immediate`. hey's list of commands is not the installed git's, so hey may name more than one
// possible command: every one git picks must be among them, and a typo git runs nothing for stays
// mostly without a guess.
import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { autocorrectTargets, gitDistance } from "../../src/permission/git-autocorrect.ts";
import { GIT_COMMANDS } from "../../src/permission/git.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

test("git's weighted distance: a swap is free, an added letter 1, a substitution 2, a dropped letter 3", () => {
  expect(gitDistance("psuh", "push")).toBe(0);
  expect(gitDistance("pus", "push")).toBe(1);
  expect(gitDistance("pish", "push")).toBe(2);
  expect(gitDistance("pushh", "push")).toBe(3);
});

test("a unique close command is git's guess; a prefix of a common command, or nothing close, is none", () => {
  expect(autocorrectTargets("psuh", GIT_COMMANDS, [])).toEqual(["push"]);
  expect(autocorrectTargets("pus", GIT_COMMANDS, [])).toEqual([]); // `push` and `pull` begin so: git only lists them
  expect(autocorrectTargets("xyzzy", GIT_COMMANDS, [])).toEqual([]);
  expect(autocorrectTargets("shovee", GIT_COMMANDS, ["shove"])).toEqual(["shove"]); // an alias is a candidate too
});

/** Misspellings of `name`: two letters swapped, one dropped, one doubled. */
function typos(name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < name.length; i++) {
    if (i + 1 < name.length) out.push(name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2));
    out.push(name.slice(0, i) + name.slice(i + 1), name.slice(0, i + 1) + name.slice(i));
  }
  return out;
}

testNeeding(["git"])("every command the installed git guesses for a misspelt one is among hey's", () => {
  const tmp = tempDir("hey-git-autocorrect-");
  try {
    mkdirSync(join(tmp.path, "home"));
    const env = { HOME: join(tmp.path, "home"), GIT_CONFIG_NOSYSTEM: "1", PATH: process.env.PATH ?? "", LANG: "C" };
    const names = [...new Set([...GIT_COMMANDS].flatMap(typos))].filter((t) => t && !t.startsWith("-") && !GIT_COMMANDS.has(t));
    let exact = 0;
    const missed: string[] = [];
    for (const typo of names) {
      const out = Bun.spawnSync(["git", "-c", "help.autocorrect=0", typo], { cwd: tmp.path, env, stdin: "ignore" }).stderr.toString();
      const guess = /The most similar command is\n\t(\S+)/.exec(out)?.[1];
      const hey = autocorrectTargets(typo, GIT_COMMANDS, []);
      if (guess !== undefined && !hey.includes(guess)) missed.push(`${typo}: git runs ${guess}, hey names ${hey.join(", ") || "none"}`);
      if (hey.length === (guess === undefined ? 0 : 1) && (guess === undefined || hey[0] === guess)) exact++;
    }
    expect(missed).toEqual([]);
    // hey's list names commands this git lacks (and this git has programs hey does not list), so it is not exact for every typo
    expect(exact / names.length).toBeGreaterThan(0.75);
  } finally {
    tmp.remove();
  }
});
