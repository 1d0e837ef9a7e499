// A deny entry naming a git subcommand (`bash: git push *`, the README's example) against real
// git: for every spelling of git's options before the subcommand — values in the next word or
// after `=`, flags, repeated options, options git does not know, aliases set on the command line,
// in the environment or in the repository's config — git runs with GIT_TRACE in a scratch
// repository, and whenever it ran the denied subcommand (`version` stands in for `push`: it runs
// anywhere and changes nothing), the checker refused the command. Options the checker reads
// exactly also leave other subcommands allowed (`git -C version status` runs status).
import { expect } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const DENIED = "version";
/** Options before the subcommand, as git's own table reads them. */
const KNOWN = [
  "",
  "-C .",
  "-C ''",
  "-C sub",
  "-C version",
  "-C . -C sub",
  "--no-pager",
  "-P",
  "-p",
  "--paginate",
  "-c core.pager=cat",
  "-c color.ui=never -c core.quotePath=false",
  "-c push",
  "--git-dir=.git",
  "--git-dir .git",
  "--work-tree=.",
  "--work-tree .",
  "--namespace x",
  "--namespace=x",
  "--no-replace-objects",
  "--literal-pathspecs",
  "--no-literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--no-optional-locks",
  "--exec-path={EXEC}",
  // a key that runs nothing: a variable's value for one git runs is judged as the value, or cannot be verified (git-texts.ts)
  "--config-env user.name=HOME",
  "--config-env=user.name=HOME",
  // a key git is known to run nothing for: under a deny list any other `-c` key cannot be verified (git-texts.ts)
  "--no-pager -c color.ui=auto -C . --git-dir=.git",
];
/** Spellings git refuses, or that define an alias: the checker cannot tell which subcommand runs, and refuses. */
const OTHER = [
  "-C.",
  "-ccore.pager=cat",
  "--frob",
  "--",
  "--exec-path",
  "--git-dir",
  "--super-prefix=x/",
  "-c alias.v={X}",
  "-c ALIAS.v={X}",
  "-c alias.v='!git {X}'",
  "--config-env=alias.v=ALIAS_TARGET",
  "-c include.path={REPO}/extra.cfg",
];
/** Whole commands whose subcommand may be an alias from somewhere the command line does not show. */
const ALIASED = [
  "git vv",
  "git v",
  "git -C . vv",
  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.v GIT_CONFIG_VALUE_0={X} git v",
  "env GIT_CONFIG_PARAMETERS=\"'alias.v'='{X}'\" git v",
];

testNeeding(["git", "sh"])(
  "whenever real git runs the subcommand a deny entry names, whatever options come first, the checker refused it",
  () => {
    const tmp = tempDir("hey-git-diff-");
    const repo = realpathSync(tmp.path);
    try {
      const env = { HOME: repo, PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", GIT_PAGER: "cat", GIT_TRACE: "1", ALIAS_TARGET: DENIED };
      const git = (args: string) => Bun.spawnSync(["sh", "-c", `git ${args}`], { cwd: repo, env, stdout: "ignore", stderr: "pipe" }).stderr.toString();
      git("init -q . && git config alias.vv version");
      Bun.write(join(repo, "extra.cfg"), `[alias]\n\tv = ${DENIED}\n`);
      for (const dir of ["sub", "version"]) mkdirSync(join(repo, dir));
      const exec = Bun.spawnSync(["git", "--exec-path"]).stdout.toString().trim();
      const ran = (trace: string, sub: string) => new RegExp(`trace: built-in: git ${sub}\\b`).test(trace);
      const rules = Object.fromEntries(["sh", "dash", "bash"].map((s) => [s, compileRules({ allow: [], deny: [`bash: git ${DENIED} *`] }, s).rules]));
      const refused = (command: string) => Object.values(rules).every((r) => !decide("bash", { command }, r).allowed);

      const missed: string[] = [];
      const usable: string[] = [];
      let live = 0;
      const spell = (s: string) => s.replaceAll("{EXEC}", exec).replaceAll("{REPO}", repo).replaceAll("{X}", DENIED);
      const commands = [
        ...[...KNOWN, ...OTHER].map((o) => `git ${spell(o)} ${o.includes("alias") || o.includes("ALIAS") || o.includes("include") ? "v" : DENIED}`),
        ...ALIASED.map(spell),
      ];
      for (const command of commands) {
        const trace = Bun.spawnSync(["sh", "-c", command], { cwd: repo, env, stdout: "ignore", stderr: "pipe" }).stderr.toString();
        if (!ran(trace, DENIED)) continue;
        live++;
        if (!refused(command)) missed.push(command);
      }
      for (const o of KNOWN.map(spell)) {
        const command = `git ${o} status`;
        if (!ran(git(`${o} status`), "status")) continue;
        if (!Object.values(rules).every((r) => decide("bash", { command }, r).allowed)) usable.push(command);
      }
      expect(missed).toEqual([]);
      expect(live).toBeGreaterThanOrEqual(KNOWN.length + 5); // the known spellings and most aliases (older gits lack some options)
      expect(usable).toEqual([]);
    } finally {
      tmp.remove();
    }
  },
  60_000,
);
