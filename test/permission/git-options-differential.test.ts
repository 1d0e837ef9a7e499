// Deny entries naming an option after a git subcommand (`git push --force *`, `git reset --hard *`,
// `git clean -fd *`, `git branch -D *`) against real git: every spelling runs in a scratch
// repository (the remote is a bare repository beside it), and whenever git did what the option
// does — forced the remote's branch back, reset the work tree, removed an untracked directory,
// deleted an unmerged branch — the checker refused the command. Spellings that did not do it run
// unless git rejected their options (exit 129) or they are listed as refused on purpose.
import { expect } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

interface Case {
  entry: string;
  /** puts the repository back where every command starts */
  reset: () => void;
  /** whether the command did what the entry's option does */
  did: () => boolean;
  commands: string[];
  /** commands that did not do it yet are refused: hey reads their words as the option (the last of two opposite options wins in git) */
  refusedAnyway: string[];
  /** commands that do it by other means than the option, which the entry does not see */
  unseen: string[];
}

testNeeding(["git", "sh"])(
  "whenever real git does what a deny entry's option names, however the option is spelled or placed, the checker refused it",
  () => {
    const tmp = tempDir("hey-git-options-");
    const root = realpathSync(tmp.path);
    const work = join(root, "w");
    const env = { HOME: root, PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", GIT_PAGER: "cat", LANG: "C", LC_ALL: "C" };
    const sh = (command: string, cwd = work) => Bun.spawnSync(["sh", "-c", command], { cwd, env, stdout: "pipe", stderr: "pipe" });
    const git = (args: string) => {
      const r = sh(`git ${args}`);
      if (r.exitCode !== 0) throw new Error(`git ${args}: ${r.stderr}`);
      return r.stdout.toString().trim();
    };
    try {
      sh("git init -q --bare remote.git && git init -q -b main w", root);
      git("config user.email t@example.com && git config user.name t && git remote add origin ../remote.git");
      writeFileSync(join(work, "f"), "1\n");
      git("add f && git commit -qm 1 && git push -q origin main");
      const first = git("rev-parse HEAD");
      writeFileSync(join(work, "f"), "2\n");
      git("commit -qam 2 && git push -q origin main");
      const second = git("rev-parse HEAD");
      git(`reset -q --hard ${first} && git checkout -q -b side && git commit -q --allow-empty -m side && git checkout -q main`);
      const side = git("rev-parse side");

      const cases: Case[] = [
        {
          entry: "git push --force *",
          // the remote has `second`; main and the remote-tracking branch say `first`, so a lease fails
          reset: () => git(`--git-dir=../remote.git update-ref refs/heads/main ${second} && git update-ref refs/remotes/origin/main ${first}`),
          did: () => git("--git-dir=../remote.git rev-parse main") === first,
          commands: [
            "git push --force origin main",
            "git push -f origin main",
            "git push origin main --force",
            "git push origin main -f",
            "git push origin -f main",
            "git push -vf origin main",
            "git push -qfu origin main",
            "git push --no-force --force origin main",
            "git -C . push origin main --force",
            "git push origin +main",
            "git push --forc origin main",
            "git push --force-with-lease origin main",
            "git push --force-w origin main",
            "git push --force-if-includes origin main",
            "git push --no-force origin main",
            "git push origin main",
            "git push --force --no-force origin main",
            "git push --dry-run --force origin main",
            "git push --mirror origin",
          ],
          refusedAnyway: ["git push --force --no-force origin main", "git push --dry-run --force origin main"],
          unseen: [],
        },
        {
          entry: "git reset --hard *",
          reset: () => writeFileSync(join(work, "f"), "dirty\n"),
          did: () => readFileSync(join(work, "f"), "utf8") === "1\n",
          commands: [
            "git reset --hard",
            "git reset --hard HEAD",
            "git reset HEAD --hard",
            "git reset -q --hard",
            "git reset --har",
            "git reset --ha HEAD",
            "git reset --soft --hard",
            "git reset --soft",
            "git reset --mixed",
            "git reset --merge",
            "git reset --keep",
            "git reset -q",
            "git reset --hard --soft",
          ],
          refusedAnyway: ["git reset --hard --soft"],
          unseen: [],
        },
        {
          entry: "git clean -fd *",
          reset: () => {
            mkdirSync(join(work, "u"), { recursive: true });
            writeFileSync(join(work, "u", "x"), "x\n");
          },
          did: () => !existsSync(join(work, "u")),
          commands: [
            "git clean -fd",
            "git clean -df",
            "git clean -f -d",
            "git clean -d -f",
            "git clean --force -d",
            "git clean -d --force",
            "git clean -fdx",
            "git clean -xdf",
            "git clean -dfq",
            "git clean --forc -d",
            "git clean -d --for",
            "git clean -f",
            "git clean -d",
            "git clean -fdn",
            "git clean -x",
          ],
          refusedAnyway: ["git clean -fdn"],
          unseen: [],
        },
        {
          entry: "git branch -D *",
          reset: () => git(`update-ref refs/heads/side ${side}`),
          did: () => sh("git rev-parse -q --verify refs/heads/side").exitCode !== 0,
          commands: [
            "git branch -D side",
            "git branch -d -f side",
            "git branch -df side",
            "git branch -fd side",
            "git branch --delete --force side",
            "git branch --force --delete side",
            "git branch -d --force side",
            "git branch --del --for side",
            "git branch -d side",
            "git branch --delete side",
            "git branch -f side",
            "git branch -v",
          ],
          refusedAnyway: [],
          unseen: [],
        },
      ];

      for (const c of cases) {
        const rules = ["sh", "dash", "bash"].map((shell) => compileRules({ allow: [], deny: [`bash: ${c.entry}`] }, shell).rules);
        const refused = (command: string) => rules.every((r) => !decide("bash", { command }, r).allowed);
        const allowed = (command: string) => rules.every((r) => decide("bash", { command }, r).allowed);
        const missed: string[] = [];
        const overRefused: string[] = [];
        let did = 0;
        for (const command of c.commands) {
          c.reset();
          const status = sh(command).exitCode;
          if (c.did()) {
            did++;
            if (!refused(command)) missed.push(command);
          } else if (status !== 129 && !allowed(command)) overRefused.push(command);
        }
        expect({ entry: c.entry, missed }).toEqual({ entry: c.entry, missed: c.unseen });
        expect({ entry: c.entry, overRefused }).toEqual({ entry: c.entry, overRefused: c.refusedAnyway });
        expect({ entry: c.entry, did: did >= c.commands.length / 2 }).toEqual({ entry: c.entry, did: true });
      }
    } finally {
      tmp.remove();
    }
  },
  60_000,
);
