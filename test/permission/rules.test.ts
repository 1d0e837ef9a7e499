import { describe, expect, test } from "bun:test";
import { BLOCKED_PREFIX, compileRules, decide as decideCompiled, validateRules, type PermissionRules } from "../../src/permission/rules.ts";
import { parseCommand } from "../../src/permission/shell-commands.ts";
import { parseSyntax } from "../../src/permission/shell-syntax.ts";
import type { Segment } from "../../src/permission/shell-model.ts";

/** Decides with `lists` compiled for /bin/sh (both dash's and bash's reading). */
const decide = (tool: string, args: Record<string, unknown>, lists: PermissionRules) => decideCompiled(tool, args, compileRules(lists).rules);
const bash = (command: string, rules: PermissionRules) => decide("bash", { command }, rules).allowed;

describe("decide", () => {
  test("MCP tools by the names the model sees them under, whatever their case (SPEC §8, §14)", () => {
    const fs = { allow: ["fs_*", "read_file"], deny: ["fs_write_file", "gettinyimage"] };
    expect(decide("fs_read_text_file", {}, fs)).toEqual({ allowed: true });
    expect(decide("fs_write_file", {}, fs).allowed).toBe(false);
    expect(decide("list_directory", {}, fs).allowed).toBe(false);
    expect(decide("getTinyImage", {}, { allow: [], deny: ["gettinyimage"] })).toEqual({
      allowed: false,
      reason: expect.stringContaining("tool `getTinyImage` matches deny entry `gettinyimage`"),
    });
    expect(decide("Fs_Search", {}, fs)).toEqual({ allowed: true });
  });

  test("no lists: every tool and every command runs, unparseable ones included", () => {
    const none = { allow: [], deny: [] };
    expect(decide("write_file", { path: "x" }, none)).toEqual({ allowed: true });
    for (const c of ["rm -rf /", 'echo "', "$(curl x | sh)"]) expect(bash(c, none)).toBe(true);
  });

  describe("deny beats allow, whatever the order", () => {
    const orders: PermissionRules[] = [
      { allow: ["bash: *"], deny: ["bash: rm *"] },
      { allow: ["bash: rm *", "bash: *"], deny: ["bash: ls", "bash: rm *"] },
      { allow: ["bash"], deny: ["bash: rm *"] },
    ];
    const refused = [
      "rm -rf x",
      "ls && rm x",
      "echo $(rm x)",
      "bash -c 'rm x'",
      "timeout 1 rm x",
      "/bin/rm x",
      "\\rm x",
      "sudo -u root rm x",
      "find . -exec rm {} +",
      "git ls-files | xargs rm",
      "FOO=1 rm x",
      "rm",
    ];
    test.each(orders.flatMap((rules) => refused.map((c) => [c, rules] as const)))("refuses %s under %j", (command, rules) => {
      expect(bash(command, rules)).toBe(false);
    });
    test("and lets the rest through", () => {
      for (const c of ["ls -la", "echo rm", "mkdir x", "git status && echo ok"]) expect(bash(c, orders[0]!)).toBe(true);
    });
  });

  test("deny-only lists: fail closed on what cannot be known", () => {
    const rules = { allow: [], deny: ["bash: rm *"] };
    const refused = [
      'echo "',
      "$X -rf /",
      "curl x | sh",
      "eval $CMD",
      "r? x",
      "RM -rf x",
      "echo / | xargs env",
      "xargs -I{} sh -c {}",
      "find . -exec sh -c {} \\;",
      "alias x='rm -rf ~'\nx",
      "echo ${x@P}",
      ". <(echo rm -rf ~)",
    ];
    for (const c of refused) expect(bash(c, rules)).toBe(false);
    for (const c of ["ls $HOME", "git log $(date +%s)", "command -v rm", "ls *.ts", "bash build.sh"]) expect(bash(c, rules)).toBe(true);
    // process substitution is bash syntax; dash stops at it with a syntax error and runs nothing, so
    // for /bin/sh (either shell) only bash's reading can run anything, and it is allowed
    const loop = { command: "while read l; do echo $l; done < <(git log)" };
    expect(decideCompiled("bash", loop, compileRules(rules, "bash").rules)).toEqual({ allowed: true });
    expect(decide("bash", loop, rules)).toEqual({ allowed: true });
    expect(decide("bash", { command: "while read l; do echo $l; done < <(rm x)" }, rules).allowed).toBe(false);
    expect(decide("write_file", {}, rules)).toEqual({ allowed: true });
  });

  test("a deny list without bash patterns does not parse commands", () => {
    expect(bash('echo "', { allow: [], deny: ["write_file"] })).toBe(true);
  });

  test("deny patterns: words in order, unknown words could be anything, redirections when named", () => {
    const force = { allow: [], deny: ["bash: git push --force *"] };
    expect(bash("git push --force origin", force)).toBe(false);
    expect(bash("git push origin", force)).toBe(true);
    expect(bash("git push $FLAGS", force)).toBe(false);
    const etc = { allow: [], deny: ["bash: * > /etc/*"] };
    expect(bash("echo x > /etc/hosts", etc)).toBe(false);
    expect(bash("echo x > /tmp/hosts", etc)).toBe(true);
    expect(bash("echo x > $F", etc)).toBe(false);
  });

  test("tool-name entries are globs", () => {
    const rules = { allow: ["github_*", "read_file"], deny: [] };
    expect(decide("github_create_issue", {}, rules).allowed).toBe(true);
    expect(decide("read_file", {}, rules).allowed).toBe(true);
    expect(decide("github", {}, rules).allowed).toBe(false);
    expect(decide("write_file", {}, rules).allowed).toBe(false);
    expect(bash("ls", rules)).toBe(false);
    expect(decide("anything", {}, { allow: ["*"], deny: [] }).allowed).toBe(true);
    expect(bash('rm -rf / "', { allow: ["*"], deny: [] })).toBe(true);
    expect(decide("github_x", {}, { allow: [], deny: ["github_*"] }).allowed).toBe(false);
    expect(decide("read_file", {}, { allow: [], deny: ["github_*"] }).allowed).toBe(true);
    expect(bash("ls", { allow: [], deny: ["bash"] })).toBe(false);
    expect(bash("ls", { allow: ["*"], deny: ["*"] })).toBe(false);
  });

  test('"bash" allows every command, except what a deny pattern refuses (unparseable ones then too)', () => {
    expect(bash('echo "', { allow: ["bash"], deny: [] })).toBe(true);
    expect(bash('echo "', { allow: ["bash"], deny: ["bash: rm *"] })).toBe(false);
  });

  test("a wrapper and the command it runs must both be allowed", () => {
    const rules = { allow: ["bash: timeout *", "bash: git *", "bash: xargs *"], deny: [] };
    expect(bash("timeout 5 git status", rules)).toBe(true);
    expect(bash("timeout -s KILL 5 git status", rules)).toBe(true);
    expect(bash("timeout 5 rm x", rules)).toBe(false);
    expect(bash("git ls-files | xargs git add", rules)).toBe(true);
    expect(bash("git ls-files | xargs -I{} git add {}", rules)).toBe(true);
    expect(bash("git ls-files | xargs -I{} git {}", rules)).toBe(false); // an input line where git reads its options: `-ccore.pager=…`
    expect(bash("git ls-files | xargs -I{} {} x", rules)).toBe(false);
    expect(bash("timeout --frobnicate 5 git status", rules)).toBe(false); // unknown option: where the command starts is unknown
  });

  test("sh -c and eval: the shell must be allowed and every inner command too", () => {
    const rules = { allow: ["bash: bash -c *", "bash: git *", "bash: ls"], deny: [] };
    expect(bash('bash -c "git status; ls"', rules)).toBe(true);
    expect(bash('bash -c "git status; rm x"', rules)).toBe(false);
    expect(bash('bash -c "$SCRIPT"', rules)).toBe(false);
    expect(bash("bash -c 'ls' && eval ls", rules)).toBe(false);
    expect(bash("echo ls | bash", rules)).toBe(false);
  });

  test("find -exec runs its command", () => {
    const rules = { allow: ["bash: find *", "bash: grep *"], deny: [] };
    expect(bash("find . -name '*.ts' -exec grep -l x {} +", rules)).toBe(true);
    expect(bash("find . -exec rm {} \\;", rules)).toBe(false);
    expect(bash("find . -exec {} \\;", rules)).toBe(false);
    expect(bash("find . -exec grep x {}", rules)).toBe(true); // no terminator: find stops with an error and runs nothing
    expect(bash("find . -exec rm {}", rules)).toBe(true);
    expect(bash("find . -exec rm {} \\; -exec grep x {}", rules)).toBe(true); // the second has none: nothing runs
    expect(bash("find . -exec rm {} \\; -exec grep x {} +", rules)).toBe(false);
  });

  test("redirections, assignments and expansions must be spelled out", () => {
    const rules = { allow: ["bash: make * > build.log", "bash: tsc * > *.txt", "bash: FOO=1 make *", "bash: git log $BRANCH"], deny: [] };
    expect(bash("make all > build.log", rules)).toBe(true);
    expect(bash("make all > other.log", rules)).toBe(false);
    expect(bash("make all >> build.log", rules)).toBe(false);
    expect(bash("tsc -p . > out.txt", rules)).toBe(true);
    expect(bash("FOO=1 make all", rules)).toBe(true);
    expect(bash("FOO=2 make all", rules)).toBe(false);
    expect(bash("make all", rules)).toBe(false);
    expect(bash("git log $BRANCH", rules)).toBe(true);
    expect(bash("git log $OTHER", rules)).toBe(false);
    expect(bash("ls > out.txt", { allow: ["bash: ls"], deny: [] })).toBe(false);
  });

  test("a pattern without * matches leading words; * spans known words; *x globs inside one word", () => {
    const rules = { allow: ["bash: git diff", "bash: npm run test*", "bash: cat *.md"], deny: [] };
    expect(bash("git diff --stat HEAD", rules)).toBe(true);
    expect(bash("git diffx", rules)).toBe(false);
    expect(bash("git status", rules)).toBe(false);
    expect(bash("npm run test:unit", rules)).toBe(true);
    expect(bash("npm run test:unit --watch", rules)).toBe(false);
    expect(bash("cat README.md", rules)).toBe(true);
    expect(bash("cat README.md x.md", rules)).toBe(false);
  });

  test("README's first example, npm run test *: npm run test with any arguments, not another script starting with test; test* the other way round", () => {
    const spaced = { allow: ["bash: npm run test *"], deny: [] };
    for (const command of ["npm run test", "npm run test -- --watch", "npm run test foo"]) expect(bash(command, spaced)).toBe(true);
    for (const command of ["npm run testify", "npm run test:unit"]) expect(bash(command, spaced)).toBe(false);
    const glued = { allow: ["bash: npm run test*"], deny: [] };
    for (const command of ["npm run test", "npm run test:unit", "npm run testify"]) expect(bash(command, glued)).toBe(true);
    for (const command of ["npm run test -- --watch", "npm run test foo"]) expect(bash(command, glued)).toBe(false);
  });

  test("refusals start with the marker, name the segment and the rule, on one line", () => {
    const rules = { allow: ["bash: git *", "bash: ls", "read_file"], deny: ["bash: rm *", "write_file"] };
    const reason = (tool: string, args: Record<string, unknown>) => {
      const d = decide(tool, args, rules);
      if (d.allowed) throw new Error("expected a refusal");
      expect(d.reason.startsWith(BLOCKED_PREFIX)).toBe(true);
      expect(d.reason).not.toContain("\n");
      return d.reason;
    };
    expect(reason("bash", { command: "git status && rm -rf x" })).toBe("blocked by permission rules: `rm -rf x` matches deny entry `bash: rm *`");
    expect(reason("bash", { command: "curl evil.sh" })).toBe(
      "blocked by permission rules: `curl evil.sh` matches no allow entry (allowed: bash: git *, bash: ls)",
    );
    expect(reason("bash", { command: 'git log "' })).toBe('blocked by permission rules: cannot verify `git log "`: syntax error: unbalanced quote');
    expect(reason("bash", { command: "$X y" })).toContain("`$X y` is known only at run time and could match deny entry `bash: rm *`");
    expect(reason("bash", { command: "ls > out" })).toContain("`bash: ls` does not allow the redirection to a file `> out`, which a pattern must spell out");
    expect(reason("bash", { command: "ls\n".repeat(40) + "curl x" })).toContain("`curl x`");
    expect(reason("bash", { command: "a".repeat(500) }).length).toBeLessThan(250);
    expect(reason("bash", {})).toContain("no `command`");
    expect(reason("write_file", {})).toBe("blocked by permission rules: tool `write_file` matches deny entry `write_file`");
    expect(reason("grep", {})).toBe("blocked by permission rules: tool `grep` matches no allow entry (allowed: read_file)");
  });

  test("entries that are no rule are left out, and compileRules and validateRules name each one", () => {
    const rules = { allow: ["bash:", "bash: ls &&", "bash: a; b", "Bash(git:*)", "read file", "bash: git *", "grep"], deny: ["bash:   "] };
    expect(bash("ls", rules)).toBe(false);
    expect(bash("git status", rules)).toBe(true);
    const errors = compileRules(rules).errors;
    expect(validateRules(rules)).toEqual(errors);
    expect(errors).toHaveLength(6);
    expect(errors[0]).toBe('[permission] allow: "bash:" has an empty pattern; "bash" alone covers every command');
    expect(errors.join("\n")).toContain("nothing after `&&`");
    expect(errors.join("\n")).toContain("one entry per command");
    expect(errors.join("\n")).toContain('write "bash: git *"');
    expect(errors[5]).toContain("[permission] deny:");
    expect(validateRules({ allow: ["bash: git *", "github_*", "*"], deny: ["bash: rm *"] })).toEqual([]);
  });
});

/** Each segment as "words" with markers: ^ nested, ? unknown, * glob; redirections appended. */
function summary(src: string, parse = (text: string) => parseCommand(text, "bash")): string[] | string {
  const p = parse(src);
  if (!p.ok) return p.reason;
  const word = (w: { text: string; unknown: boolean; glob: boolean }) => w.text + (w.unknown ? "?" : "") + (w.glob ? "*" : "");
  const one = (s: Segment) =>
    (s.nested ? "^" : "") +
    [...s.assigns, ...s.words]
      .map(word)
      .concat(s.redirects.map((r) => r.op + word(r.target)))
      .join(" ");
  return p.segments.map(one);
}

describe("shell-words", () => {
  test.each([
    ["separators", "a && b || c; d | e |& f & g\nh", ["a", "b", "c", "d", "e", "f", "g", "h"]],
    ["quoted separators are literal", "echo \"a && b\" 'c; d' e\\;f", ["echo a && b c; d e;f"]],
    ["quotes and escapes removed", "\\rm 'r'm \"git\" a\\ b", ["rm rm git a b"]],
    ["double-quote escapes", 'echo "\\$x \\" \\\\ \\n"', ['echo $x " \\ \\n']],
    ["assignments", 'FOO=1 BAR="x y" make X=2', ["FOO=1 BAR=x y make X=2"]],
    ["redirections", "ls >a 2>&1 >>b <c 3<>d &>e 1>f 0<g >|h", ["ls >a 2>&1 >>b <c 3<>d &>e >f <g >|h"]],
    ["fd needs to touch the operator", "echo 2 >x", ["echo 2 >x"]],
    ["nested substitutions", 'echo "$(ls "$(pwd)")"', ["^pwd", "^ls $(pwd)?", 'echo $(ls "$(pwd)")?']],
    ["backticks", "echo `ls -a`", ["^ls -a", "echo `ls -a`?"]],
    ["escaped backticks in backticks", "echo `echo \\`ls\\``", ["^ls", "^echo `ls`?", "echo `echo \\`ls\\``?"]],
    ["process substitution: a file name, any value", "diff <(a) >(b)", ["^a", "^b", "diff <(a)* >(b)*"]],
    ["subshell and group", "(a; b) | { c; } > f", ["^a", "^b", "^c", ">f"]],
    ["keywords are stripped", "if a; then b; elif c; then x; else d; fi; while e; do f; done", ["a", "b", "c", "x", "d", "e", "f"]],
    ["for header runs nothing, its words may", "for x in $(a) b; do c; done", ["^a", "c"]],
    ["arithmetic", "echo $((1 + (2 * 3)))", ["echo $((1 + (2 * 3)))?"]],
    ["parameters", "echo $a ${b:-$(c)} $1 $@ \\$d", ["^c", "echo $a? ${b:-$(c)}? $1? $@? $d"]],
    ["globs", "ls *.ts a? [ab] {a,b} {} [", ["ls *.ts* a?* [ab]* {a,b}* {} ["]],
    ["comments", "a # b; c\nd#e", ["a", "d#e"]],
    ["continuations", "a \\\n b\\\nc", ["a bc"]],
    ["quoted heredoc body is data", "cat <<'E'\n$(x)\nE\nls", ["cat <<E", "ls"]],
    ["heredoc body expands", "cat <<-E\n\t$(x)\n\tE\nls", ["cat <<-E", "^x", "ls"]],
    ["wrappers", "timeout -s KILL 5 nice -n 3 env -u X A=1 ls", ["timeout -s KILL 5", "^nice -n 3", "^env -u X", "^A=1 ls"]],
    ["wrapper keeps assignments and gives redirections to the command", "A=1 sudo -u r ls > x", ["A=1 sudo -u r", "^A=1 ls >x"]],
    ["sh -c", "sh -c 'a; b' x", ["sh -c x", "^a", "^b"]],
    ["eval", 'eval "a && b" c', ["eval", "^a", "^b c"]],
    ["script from an expansion", 'sh -c "$X"', ["sh -c $X?", '^sh -c "$X"?']],
    ["shell reading stdin", "curl x | bash", ["curl x", "bash", "^bash?"]],
    ["xargs", "xargs -0 -n1 git add", ["xargs -0 -n1", "^git add …*"]],
    ["xargs -I", "xargs -I% sh -c 'echo %'", ["xargs -I%", "^sh -c echo %?", "^sh -c 'echo %'?"]],
    ["find -exec", "find . -exec grep -l x {} + -name y", ["find . -name y", "^grep -l x {}*"]],
    ["command -v only looks up", "command -v rm", ["command -v rm"]],
    ["bash's [[ ]] runs only its substitutions", "[[ -n $(a) && $x =~ (b|c) ]] && d", ["^a", "d"]],
    ["a backslash ending the text is itself", "echo \\", ["echo \\"]],
    ["bash decodes $'…'", "echo $'a\\'b' $'\\x2d'l $'\\101\\t'", ["echo a'b -l A\t"]],
    ["bash's arithmetic command naming a variable", "((x++))", ["^((x++))?"]],
    ["case: every item's commands", "case $x in a|b) c;; (d) e; f;;\n*) g ;;& esac", ["c", "e", "f", "g"]],
    ["a function's body is read where it is defined; a call after it runs no program", "f() { a; }; f x; g() (b)", ["^a", "f x", "^b"]],
    ["bash's function keyword", "function f { a; }", ["^a"]],
    ["a function body's redirections are checked where it is defined", "f() { a; } >x; f", ["^a", ">x", "f"]],
    ["bash arrays: elements are words, substitutions run", 'a=(b "$(c)" [2]=d); declare -a e=(f g)', ["^c", 'a=(b "$(c)" [2]=d)?', "declare -a e=(f g)"]],
  ] as const)("%s", (_name, src, expected) => {
    expect(summary(src)).toEqual([...expected]);
  });

  test("parseSyntax does not see through wrappers", () => {
    expect(summary("timeout 5 sh -c 'rm x'", (text) => parseSyntax(text, "bash"))).toEqual(["timeout 5 sh -c rm x"]);
  });

  test.each([
    ['"', "syntax error: unbalanced quote"],
    ["'", "syntax error: unbalanced quote"],
    ["echo $(ls", "syntax error: missing `)`"],
    ["echo `ls", "syntax error: unterminated backtick"],
    ["echo ${x", "syntax error: unterminated ${"],
    ["echo $((1", "syntax error: unterminated `((`"],
    ["cat <<EOF\nx", "unterminated heredoc (no `EOF` line)"],
    ["cat <<EOF", "unterminated heredoc (no `EOF` line)"],
    ["a &&", "syntax error: nothing after `&&`"],
    ["a |", "syntax error: nothing after `|`"],
    ["; a", "syntax error: unexpected `;`"],
    ["a ;; b", "syntax error: `;;` outside `case`"],
    ["a )", "syntax error: unexpected `)`"],
    ["(a", "syntax error: missing `)`"],
    ["{ a }", "syntax error: missing `}`"],
    ["[[ a b ]]", "`b` is no operator of `[[ … ]]`"],
    ["coproc x", "unsupported shell syntax `coproc`"],
    ["if a; then b; elif c; else d; fi", "syntax error: unexpected `else`"],
    ["while a; then b; done", "syntax error: unexpected `then`"],
    ["if a; then b", "syntax error: `then` without its end"],
    ["( if a; then b; ) fi", "syntax error: `then` without its end"],
    ["case x in a) b;; ;; esac", "syntax error: unexpected `;` in a `case` pattern"],
    ["echo a(b", "syntax error: unexpected `(`"],
    ["ls >", "syntax error: missing target after `>`"],
    ["a\rb", "control character in the command"],
    ["echo $((a) && b)", "ambiguous `((`; write `( (…) )` for a subshell"],
    ["echo " + "$(".repeat(12) + "x" + ")".repeat(12), "nested too deeply"],
    ["sh -c 'echo \"'", "syntax error: unbalanced quote"],
    ["echo a\necho '", "syntax error: unbalanced quote"],
  ])("fails on %j", (src, reason) => {
    expect(summary(src)).toBe(reason);
  });
});

// Git Bash on Windows runs `git.exe` and `/c/…/git.exe` as git, and PATHEXT finds npm.cmd for `npm`
test.each(["git.exe push origin", "'/c/Program Files/Git/cmd/git.exe' push", "GIT.EXE -C repo push", "'C:\\Git\\cmd\\git.exe' push"])(
  "deny git push * refuses %s: a program is named by its basename, without the extension Windows runs it by",
  (command) => {
    const rules = compileRules({ allow: [], deny: ["bash: git push *", "bash: npm publish *"] }, "bash").rules;
    expect(decideCompiled("bash", { command }, rules)).toEqual({
      allowed: false,
      reason: `blocked by permission rules: \`${command}\` matches deny entry \`bash: git push *\``,
    });
    expect(decideCompiled("bash", { command: "npm.cmd publish" }, rules).allowed).toBe(false);
    expect(decideCompiled("bash", { command: "git.exe status" }, rules).allowed).toBe(true);
  },
);
