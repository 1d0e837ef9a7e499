// x39 finding 3: hey's own no-editor hints, and the forms models use to give git an editor or a
// message, under an allow list and a deny list. A variable git runs as shell text, assigned before
// git (`GIT_EDITOR=true git rebase --continue`), is judged as that text, as `git -c core.editor=…`
// is; a `cat` of a heredoc reads no file, so `git commit -m "$(cat <<'EOF' … EOF)"` passes
// `bash: git *` while `cat <<EOF > f` and `cat FILE` still need their own entries.
import { describe, expect, test } from "bun:test";
import { compileRules, decide, type PermissionRules, type ShellFacts } from "../../src/permission/rules.ts";

const LISTS: Record<string, PermissionRules> = {
  allow: { allow: ["read_file", "bash: git *"], deny: [] },
  deny: { allow: [], deny: ["bash: git push *"] },
};
const judge = (command: string, list: PermissionRules, shell: string | ShellFacts = "sh") => decide("bash", { command }, compileRules(list, shell).rules);
const both = (command: string) => Object.entries(LISTS).map(([name, list]) => ({ name, d: judge(command, list) }));
const allowedUnderBoth = (command: string) =>
  expect(both(command)).toEqual([
    { name: "allow", d: { allowed: true } },
    { name: "deny", d: { allowed: true } },
  ]);
const refusal = (command: string, list: PermissionRules, shell: string | ShellFacts = "sh") => {
  const d = judge(command, list, shell);
  expect({ command, allowed: d.allowed }).toEqual({ command, allowed: false });
  return d.allowed ? "" : d.reason;
};

const COMMIT =
  "git add f.txt && git commit -m \"$(cat <<'EOF'\nfix(parser): keep \"quotes\" and 'words'\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"";

describe("an editor given before git is judged as the text git runs", () => {
  test("hey's no-editor hints and the editor forms that run `true` pass `bash: git *` and a deny list, in sh, dash and bash", () => {
    for (const command of [
      "git -c core.editor=true rebase --continue",
      "git -c sequence.editor=true rebase -i --autosquash HEAD~3",
      "GIT_EDITOR=true git rebase --continue",
      "GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash HEAD~3",
      "EDITOR=true git commit --amend",
      "VISUAL=: git merge topic",
      "GIT_EDITOR=true GIT_SEQUENCE_EDITOR=true git rebase -i HEAD~2",
      "git add f.txt && GIT_EDITOR=true git rebase --continue",
    ]) {
      allowedUnderBoth(command);
      for (const shell of ["dash", "bash"])
        expect({ command, shell, d: judge(command, LISTS.allow!, shell) }).toEqual({ command, shell, d: { allowed: true } });
    }
  });

  test("an allow entry that spells the whole command allows it, with no `git *` entry", () => {
    const list = { allow: ["bash: GIT_EDITOR=true git rebase --continue"], deny: [] };
    expect(judge("GIT_EDITOR=true git rebase --continue", list)).toEqual({ allowed: true });
    expect(judge("GIT_EDITOR=vim git rebase --continue", list).allowed).toBe(false);
    expect(judge("git rebase --continue", list).allowed).toBe(false);
  });

  test("an editor the allow list does not allow is refused, naming it; allowing that program allows the command", () => {
    expect(refusal("GIT_EDITOR=vim git commit", LISTS.allow!)).toContain(
      "`GIT_EDITOR=vim git commit` sets GIT_EDITOR, which git runs with the shell: `vim` matches no allow entry",
    );
    const sed = 'GIT_SEQUENCE_EDITOR="sed -i 2s/^pick/fixup/" git rebase -i HEAD~3';
    expect(refusal(sed, LISTS.allow!)).toContain("`sed -i 2s/^pick/fixup/` matches no allow entry");
    expect(judge(sed, { allow: ["bash: git *", "bash: sed *"], deny: [] })).toEqual({ allowed: true });
    expect(judge("GIT_EDITOR=vim git commit", { allow: ["bash: git *", "bash: vim *"], deny: [] })).toEqual({ allowed: true });
    // the text git runs is a whole command line: each of its commands needs an entry
    expect(refusal("GIT_EDITOR='true; curl -o x.sh https://x.example' git commit", { allow: ["bash: git *", "bash: true"], deny: [] })).toContain(
      "`curl -o x.sh https://x.example` matches no allow entry",
    );
    expect(refusal("GIT_EDITOR=$E git commit", LISTS.allow!)).toContain("`GIT_EDITOR=$E` is known only at run time");
  });

  test("under a deny list the editor's text meets the deny entries; git's own deny entries still match behind it", () => {
    const rm = { allow: [], deny: ["bash: rm *"] };
    expect(refusal("GIT_EDITOR=\"r''m -f x\" git commit", rm)).toContain(
      "sets GIT_EDITOR, which git runs with the shell: `r''m -f x` matches deny entry `bash: rm *`",
    );
    expect(refusal("GIT_SEQUENCE_EDITOR=\"r''m -f\" git rebase -i HEAD~2", rm)).toContain("`r''m -f` matches deny entry");
    expect(refusal("GIT_EDITOR=true git push --force", LISTS.deny!)).toContain("matches deny entry `bash: git push *`");
    expect(refusal("GIT_EDITOR=$E git commit", rm)).toContain("known only at run time");
  });

  test("other assignments before a program are still refused, saying they change what that command runs, not later ones", () => {
    for (const list of Object.values(LISTS)) {
      expect(refusal("PATH=. ls", list)).toContain("cannot verify `PATH=. ls`: assigning `PATH` before `ls` changes what that command runs");
      expect(refusal("GIT_DIR=/tmp/x git status", list)).toContain("assigning `GIT_DIR` before `git` changes what that command runs");
      expect(refusal("GIT_EDITOR=true GIT_DIR=/tmp/x git commit", list)).toContain("assigning `GIT_DIR` before `git`");
      expect(refusal("LD_PRELOAD=./x.so git status", list)).toContain("assigning `LD_PRELOAD` before `git`");
      // before something other than git the editor is not read as git's: it is refused as before
      expect(refusal("GIT_EDITOR=true make", list)).toContain("assigning `GIT_EDITOR` before `make`");
      // a function named git runs its body with the assignment; an assignment alone lasts for later commands
      expect(refusal('git() { vim "$@"; }; GIT_EDITOR=true git commit', list)).toContain("assigning `GIT_EDITOR` changes what later commands run");
      expect(refusal("GIT_EDITOR=vim; git commit", list)).toContain("assigning `GIT_EDITOR` changes what later commands run");
      expect(refusal("export GIT_EDITOR=vim && git commit", list)).toContain("assigning `GIT_EDITOR` changes what later commands run");
    }
  });
});

describe("a commit message from cat of a heredoc", () => {
  test("the form Claude Code's models emit passes `bash: git *` and a deny list: its word is the heredoc's text", () => {
    allowedUnderBoth(COMMIT);
    allowedUnderBoth("git commit -m \"$(cat <<-'EOF'\n\tfix: tabs\n\tEOF\n)\"");
    allowedUnderBoth("git log --oneline | cat");
    allowedUnderBoth("git commit -F - <<'EOF'\nfix\nEOF");
  });

  test("a cat that reads a file, writes one, or is given run-time text still needs its entry", () => {
    for (const [command, names] of [
      ["cat <<'EOF' > notes.md\nhello\nEOF", "`cat <<'EOF' > notes.md` matches no allow entry"],
      ["cat .env", "`cat .env` matches no allow entry"],
      ["cat <<EOF .env\nx\nEOF", "`cat <<EOF .env` matches no allow entry"],
      ["cat < .env", "`cat < .env` matches no allow entry"],
      ['git commit -m "$(cat <<EOF\nmsg $(rm -f x)\nEOF\n)"', "`rm -f x` matches no allow entry"],
      ['git commit -m "$(cat .env)"', "`cat .env` matches no allow entry"],
      ["git commit -m $(cat <<'EOF'\nmsg\nEOF\n)", "is known only at run time"],
      ["cat() { rm -f x; }; git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"", "`rm -f x` matches no allow entry"],
    ])
      expect(refusal(command!, LISTS.allow!)).toContain(names!);
  });

  test("a body bash 3.2 (macOS) would end the substitution inside, or read a quote across, leaves the message known only at run time where bash 3.x may run it", () => {
    for (const shell of ["sh", "bash"].map((name) => ({ name, bash3: true }))) {
      // bash 3.2 finds `$(…)`'s end by scanning: here it would end at `x)`, and `; rm -rf ~ ;` would be code
      expect(refusal('git commit -m "$(cat <<\'EOF\'\nx) " ; rm -rf ~ ; echo "\nEOF\n)"', LISTS.allow!, shell)).toContain("is known only at run time");
      expect(refusal("git commit -m \"$(cat <<'EOF'\nit's done\nEOF\n)\"", LISTS.allow!, shell)).toContain("(bash 3.2, macOS's, would end");
      expect(refusal("git commit -m \"$(cat <<'EOF'\nsee $'x'\nEOF\n)\"", LISTS.allow!, shell)).toContain("is known only at run time");
      expect(judge("git commit -m \"$(cat <<'EOF'\nit's done, isn't it (yes)\nEOF\n)\"", LISTS.allow!, shell)).toEqual({ allowed: true });
    }
  });

  test("where no bash 3.x runs the commands (Linux's sh and bash, Homebrew's bash 5), a message with `don't` or a lone `)` is the heredoc's text", () => {
    for (const shell of [
      { name: "sh", bash3: false },
      { name: "bash", bash3: false },
      { name: "dash", bash3: true },
    ]) {
      for (const list of Object.values(LISTS)) {
        for (const body of ["fix: don't crash when config is missing\n\n1) parser", "see $'x'", "it's done"])
          expect({ shell, body, d: judge(`git add f && git commit -m "$(cat <<'EOF'\n${body}\nEOF\n)"`, list, shell) }).toEqual({
            shell,
            body,
            d: { allowed: true },
          });
      }
      // what the body says is data, not code: still the heredoc's text to a deny entry
      expect(refusal('git push -m "$(cat <<\'EOF\'\nx) " ; rm -rf ~ ; echo "\nEOF\n)"', LISTS.deny!, shell)).toContain("matches deny entry `bash: git push *`");
    }
  });

  test("a deny entry for cat still refuses it", () => {
    expect(refusal(COMMIT, { allow: [], deny: ["bash: cat *"] })).toContain("matches deny entry `bash: cat *`");
  });
});
