// Issue 9's classes, one row each: the command, the shells (as tools/shell.ts names them) it is
// decided for, the list, and what the refusal must name — the segment or construct refused — or
// "allowed". The differential test proves the same rows against real shells; these pin the reasons.
import { describe, expect, test } from "bun:test";
import { BLOCKED_PREFIX, compileRules, decide, type PermissionRules } from "../../src/permission/rules.ts";

const LISTS: Record<string, PermissionRules> = {
  narrow: { allow: ["bash: ls", "bash: cat *", "bash: echo *"], deny: [] },
  deny: { allow: [], deny: ["bash: pwned *", "bash: rm *"] },
  usable: { allow: ["bash: git *", "bash: ls", "bash: head *", "bash: echo *", "bash: cat *", "bash: grep *", "bash: find *", "bash: timeout *", "bash: xargs *"], deny: [] },
};

type Row = [cls: string, command: string, shells: string, list: string, names: string];

const rows: Row[] = [
  // line continuations are removed first, as the shell removes them
  ["continuation", 'echo "$\\\n(pwned)"', "sh dash bash", "narrow", "`pwned` matches no allow entry"],
  ["continuation", "echo \\\\\npwned", "sh", "narrow", "`pwned` matches no allow entry"],
  ["continuation", "fo\\\nr x in a; do pwned; done", "sh", "deny", "`pwned` matches deny entry"],
  ["continuation", "echo ${x:-\\\n$(pwned)}", "sh", "deny", "`pwned` matches deny entry"],
  ["continuation", "cat <<E\\\nOF\nbody\nEOF\npwned", "sh", "narrow", "`pwned` matches no allow entry"],
  ["continuation", "cat <<EOF\nEO\\\nF\npwned\nEOF", "sh dash bash", "narrow", "a line continuation inside a heredoc body"],
  ["continuation", "# note \\\npwned", "sh", "narrow", "`pwned` matches no allow entry"],
  ["continuation", "l\\\ns \\\n-la", "sh", "narrow", "allowed"],
  // dialect tokens, read as the shell that runs the command reads them
  ["dialect", "ls &>/dev/null pwned", "sh dash", "narrow", "`>/dev/null pwned` matches no allow entry"],
  ["dialect", "ls &>/dev/null pwned", "bash", "narrow", "allowed"],
  ["dialect", "ls &>> out pwned", "dash", "deny", "`>> out pwned` matches deny entry"],
  ["dialect", "ls &>> out", "bash", "deny", "`&>>` (bash before 4.0, macOS's /bin/bash, reads `&` then `>>`)"],
  ["dialect", "echo $(ls # )\n)", "sh bash", "deny", "a comment inside `$(…)`"],
  ["dialect", "echo `ls # )`", "sh bash", "deny", "allowed"],
  ["dialect", "ls |& pwned", "dash", "narrow", "cannot verify `ls |& pwned`: syntax error: unexpected `&`"],
  ["dialect", "ls |& pwned", "sh", "narrow", "`pwned` matches no allow entry"],
  ["dialect", "cat <<< x", "dash", "narrow", "syntax error: missing target after `<<`"],
  // dash stops at a syntax error and runs nothing from there on: for /bin/sh only bash's reading runs
  ["dialect", "cat <<< x", "sh", "narrow", "allowed"],
  ["dialect", "cat <<< x; pwned", "sh", "narrow", "`pwned` matches no allow entry"],
  ["dialect", "ls\ncat <<< x", "sh", "deny", "allowed"],
  ["dialect", "pwned\ncat <<< x", "sh", "deny", "`pwned` matches deny entry"],
  ["dialect", "pwned\ncat <<< x", "dash", "deny", "syntax error: missing target after `<<`"],
  ["dialect", "a=(ls pwned)", "sh bash", "narrow", "allowed"],
  ["dialect", "a=(ls $(pwned))", "sh bash", "narrow", "`pwned` matches no allow entry"],
  ["dialect", "a=([x]=1)", "sh bash", "deny", "cannot verify `[x]=1`: bash evaluates a variable in arithmetic as code"],
  ["dialect", "echo 'x", "sh dash bash", "deny", "syntax error: unbalanced quote"],
  ["dialect", "cat <<< x", "bash", "narrow", "allowed"],
  ["dialect", "cat <(ls)", "dash", "narrow", "syntax error: dash reads `<(` or `>(` as a redirection without a target"],
  ["dialect", "cat <(ls)", "sh bash", "narrow", "allowed"],
  ["dialect", "cat <(pwned)", "sh bash", "narrow", "`pwned` matches no allow entry"],
  // dash 0.5.12 reads `$'…'` as `$` and a quoted string, newer dash as bash does: data either way
  ["dialect", "echo $'\\x41'", "dash sh", "narrow", "allowed"],
  ["dialect", "$'\\x70wned'", "bash", "deny", "`$'\\x70wned'` matches deny entry"],
  ["dialect", "$'\\x70wned'", "sh dash", "deny", "is known only at run time and could match deny entry"],
  ["dialect", "echo $'a\\'b'", "dash", "deny", "ends at different places across dash versions"],
  ["dialect", "cat <<$'EOF'\nEOF\npwned\n$EOF", "bash", "narrow", "heredoc delimiter `$'EOF'` is not a plain word"],
  ["dialect", 'cat <<$"EOF"\nEOF\npwned\n$EOF', "sh dash bash", "narrow", 'heredoc delimiter `$"EOF"` is not a plain word'],
  ["dialect", "ls {fd}>/dev/null", "bash", "deny", "bash's `{name}>` fd redirection"],
  ["dialect", "ls {fd} >/dev/null; ls {a}", "sh", "deny", "allowed"],
  ["dialect", "ls >& out", "dash", "deny", "`>&out`: not an fd number"],
  ["dialect", "echo $[1+1]", "bash", "deny", "bash's `$[…]` arithmetic"],
  // grammar the old reader got wrong, and grammar outside the subset
  ["grammar", "for x do pwned; done", "sh", "narrow", "`pwned` matches no allow entry"],
  ["grammar", "for x\ndo pwned; done", "sh", "narrow", "`pwned` matches no allow entry"],
  ["grammar", "for x in a do pwned; do ls; done", "sh", "deny", "allowed"],
  ["grammar", "cat <<EOF; for x in $(\npwned\nEOF\n); do :; done\nEOF", "sh", "deny", "a newline inside a nested command while a heredoc is pending"],
  ["grammar", "echo $(cat <<EOF\nEOF)\npwned\nEOF\n)", "sh", "deny", "a heredoc line starts with its delimiter `EOF` but does not end it"],
  ["grammar", "cat <<EOF\n$(\nEOF\npwned\n)\nEOF", "sh", "deny", "missing `)`"],
  ["grammar", "case x in x) pwned;; esac", "sh", "deny", "`pwned` matches deny entry"],
  ["grammar", "case x in y) ls;; *) pwned;; esac", "sh", "narrow", "`pwned` matches no allow entry"],
  ["grammar", "case x in y) ls;; *) cat z;; esac", "sh", "narrow", "allowed"],
  ["grammar", "case x in y) ls;& z) pwned;; esac", "dash", "deny", "syntax error: unexpected `;&` in `case`"],
  ["grammar", "f() { pwned; }; f", "sh", "deny", "`pwned` matches deny entry"],
  ["grammar", "f() { ls; }; f; f x", "sh", "narrow", "allowed"],
  ["grammar", "f; f() { ls; }", "sh", "narrow", "`f` matches no allow entry"],
  ["grammar", "true && f() { ls; }; f", "sh", "narrow", "`f` matches no allow entry"],
  ["grammar", "if true; then f() { ls; }; fi; f", "sh", "narrow", "`f` matches no allow entry"],
  ["grammar", "f() { ls; } & f", "sh", "narrow", "`f` matches no allow entry"],
  ["grammar", "case a in b) f() { ls; };; esac; f", "sh", "narrow", "`f` matches no allow entry"],
  ["grammar", "for i in 1; do f() { ls; }; done; f", "sh", "narrow", "`f` matches no allow entry"],
  ["grammar", "(f() { ls; }); f", "sh", "narrow", "`f` matches no allow entry"],
  ["grammar", "f() { ls; }; unset f; f", "sh", "narrow", "`f` matches no allow entry"],
  ["grammar", "f() { ls; }; env f", "sh", "narrow", "`env` matches no allow entry"],
  ["grammar", "select x in a; do pwned; done", "sh", "deny", "`pwned` matches deny entry"],
  ["grammar", "select PATH in a; do ls; done", "bash", "deny", "assigning `PATH` changes what later commands run"],
  ["grammar", "[[ -f x ]] && ls", "sh dash", "narrow", "`[[ -f x ]]` matches no allow entry"],
  ["grammar", "[[ -f x ]] && ls", "bash", "narrow", "allowed"],
  ["grammar", "[[ -f x ]] && ls", "dash", "deny", "allowed"],
  ["grammar", "a+=b; ls", "sh dash", "narrow", "`a+=b` matches no allow entry"],
  ["grammar", "a+=b; ls", "bash", "narrow", "allowed"],
  // bash's [[ ]]: its words are never split or globbed, but -eq and its kin evaluate arithmetic, -v a subscript
  ["conditional", "[[ $x == y* && -n $y || ( ! -e $z ) ]] && [[ $x =~ ^(a|b c)$ ]] && [[ $x != @(a|b) ]]", "bash", "narrow", "allowed"],
  ["conditional", "[[ -v a[1] && $$ -gt 0 && ${#a[@]} -le 3 && 010 -eq 8 && \"$#\" -ne 1 ]]", "bash", "narrow", "allowed"],
  ["conditional", "[[ $x -eq 1 ]]", "bash", "deny", "cannot verify `[[ $x -eq 1 ]]`: bash evaluates a variable in arithmetic as code"],
  ["conditional", "[[ 1 -lt n ]]", "bash", "deny", "bash evaluates a variable in arithmetic as code"],
  ["conditional", "[[ 1 -eq PATH=0 ]]; ls", "bash", "deny", "assigning `PATH` changes what later commands run"],
  ["conditional", "[[ -v $x ]]", "bash", "deny", "bash evaluates a subscript in a variable name as code"],
  ["conditional", "[[ -v 'a[$(pwned)]' ]]", "bash", "deny", "bash evaluates a subscript in a variable name as code"],
  ["conditional", "[[ -n $(pwned) ]]", "bash", "deny", "`pwned` matches deny entry"],
  ["conditional", "[[ a == @($(pwned)) ]]", "bash", "deny", "inside a pattern group"],
  ["conditional", "[[ a == b c ]]", "bash", "deny", "cannot verify"],
  ["conditional", "[[ -f x ]] && pwned", "dash", "deny", "`pwned` matches deny entry"],
  // bash's integer variables evaluate what is assigned to them (issue 30)
  ["integer", "RANDOM='a[$(pwned)]'", "bash", "deny", "bash evaluates a value assigned to an integer variable as code"],
  ["integer", "for OPTIND in \"$x\"; do :; done", "bash", "deny", "bash evaluates a value assigned to an integer variable as code"],
  ["integer", "read SRANDOM <<EOF\nx\nEOF", "bash", "deny", "bash evaluates a value assigned to an integer variable as code"],
  ["integer", "declare -i n; n=$x", "bash", "deny", "bash evaluates every value later assigned to a variable declared `-i` as code"],
  ["integer", "declare -i REPLY; read", "bash", "deny", "bash evaluates every value later assigned to a variable declared `-i` as code"],
  ["integer", "OPTIND=1; declare -i n=5; echo $n; unset UID", "bash", "deny", "allowed"],
  // variables only ever set to numbers: bash's arithmetic may read them
  ["numeric", "i=0; while [[ $i -lt 3 ]]; do echo $((i * 2)) ${a[i]}; i=$((i+1)); done; true & pid=$!; wait $pid", "bash", "deny", "allowed"],
  ["numeric", "i=0; for ((; i<3; i++)); do echo $i; done; echo $((0xff + 16#ff + 64#z))", "bash", "deny", "allowed"],
  ["numeric", "i=0; read i; echo $((i))", "bash", "deny", "cannot verify `$((i))`: bash evaluates a variable in arithmetic as code"],
  ["numeric", "echo $((i)); i=0", "bash", "deny", "cannot verify `$((i))`"],
  ["numeric", "if true; then i=0; fi; echo $((i))", "bash", "deny", "cannot verify `$((i))`"],
  ["numeric", "f() { echo $((i)); }; i=0; f", "bash", "deny", "cannot verify `$((i))`"],
  ["numeric", "i=0; i=$x; echo $((i))", "bash", "deny", "cannot verify `$((i))`"],
  ["numeric", "REPLY=0; read; echo $((REPLY))", "bash", "deny", "cannot verify `$((REPLY))`"],
  ["numeric", "for ((i=0; i<3; i++)); do i=$x; done", "bash", "deny", "cannot verify `((i=0; i<3; i++))`"],
  ["numeric", "pid=$x; wait $pid", "bash", "deny", "cannot verify `wait $pid`"],
  ["numeric", "for ((i=0; i<3; i++)); do :; done", "dash", "deny", "syntax error: `for` needs a plain variable name"],
  ["numeric", "set -- $x; set -o pipefail; eval; echo x > >(cat)", "bash", "narrow", "allowed"],
  ["numeric", "set -o pipefail -k", "bash", "deny", "`set -k` makes later NAME=value arguments assignments"],
  ["integer", "shopt -s extglob\n!(ls)", "bash", "deny", "`shopt -s extglob` changes how bash reads the lines after it"],
  // builtins that run nothing need no entry; those that run a command do
  ["builtins", "command -v git; type git; trap; trap -l; trap - INT; trap '' HUP; kill -l; exec 2>/dev/null", "sh dash bash", "narrow", "allowed"],
  ["builtins", "trap 'ls' EXIT", "sh", "narrow", "`trap 'ls' EXIT` matches no allow entry"],
  ["builtins", "%1 & %?x; \"%-\"; complete -C 'pwned x' y; [[ $RANDOM -ge $SECONDS ]]", "bash", "narrow", "allowed"],
  ["builtins", "%1", "sh dash", "narrow", "`%1` matches no allow entry"],
  ["builtins", "unset RANDOM; [[ $RANDOM -ge 0 ]]", "bash", "deny", "bash evaluates a variable in arithmetic as code"],
  ["builtins", "compgen -C pwned x", "bash", "deny", "`compgen` expands and runs words it is given"],
  ["builtins", "kill 1", "sh", "narrow", "`kill 1` matches no allow entry"],
  ["builtins", "command ls", "sh", "narrow", "`command` matches no allow entry"],
  ["builtins", "exec ls", "sh", "narrow", "`exec` matches no allow entry"],
  ["builtins", "exec >log", "sh", "narrow", "`exec >log` matches no allow entry"],
  ["grammar", "if (ls) then cat x; fi", "sh", "narrow", "allowed"],
  // bash builtins that evaluate a subscript or a variable's value as code
  ["subscript", "printf -v 'a[$(pwned)]' x", "sh bash", "deny", "cannot verify `printf -v 'a[$(pwned)]' x`: bash evaluates a subscript"],
  ["subscript", "printf -v 'a[$(pwned)]' x", "dash", "deny", "allowed"],
  ["subscript", "printf '%s\\n' \"$x\" && printf -v out %s y && wait 12 && read -r -a arr line <<EOF\nx\nEOF", "bash", "deny", "allowed"],
  ["subscript", "getopts ab opt && unset -v x && mapfile -t lines <<EOF\nx\nEOF", "bash", "deny", "allowed"],
  ["subscript", "read -a 'a[$(pwned)]' <<EOF\nx\nEOF", "bash", "deny", "cannot verify `read -a 'a[$(pwned)]' <<EOF`"],
  ["subscript", "wait -p 'a[$(pwned)]'", "bash", "deny", "cannot verify `wait -p 'a[$(pwned)]'`"],
  ["subscript", "test -v 'a[$(pwned)]'", "bash", "deny", "cannot verify `test -v 'a[$(pwned)]'`"],
  ["subscript", "[ -v \"$x\" ]", "bash", "deny", "cannot verify `[ -v \"$x\" ]`"],
  ["subscript", "[ -n \"$x\" ] && [ \"$a\" = \"$b\" ]", "bash", "deny", "allowed"],
  ["subscript", "read 'a[$(pwned)]' <<EOF\n1\nEOF", "bash", "deny", "cannot verify `read 'a[$(pwned)]' <<EOF`"],
  ["subscript", "declare 'a[$(pwned)]=1'", "bash", "deny", "cannot verify `declare 'a[$(pwned)]=1'`"],
  ["subscript", "declare -i n=$x", "bash", "deny", "bash evaluates values assigned with `-i` as code"],
  ["subscript", "declare -n r=x", "bash", "deny", "bash evaluates values assigned with `-n` as code"],
  ["subscript", "let x", "bash", "deny", "cannot verify `let x`: bash evaluates a variable in arithmetic"],
  ["subscript", "echo $((x + 1))", "bash", "deny", "cannot verify `$((x + 1))`: bash evaluates a variable in arithmetic"],
  ["subscript", "echo $((1 + 2))", "bash", "deny", "allowed"],
  ["subscript", "unset 'a[$(pwned)]'", "bash", "deny", "cannot verify `unset 'a[$(pwned)]'`"],
  ["subscript", "echo ${a[x]}", "bash", "deny", "cannot verify `${a[x]}`: bash evaluates a variable in arithmetic"],
  ["subscript", 'echo "${a[@]}" ${a[0]}', "bash", "deny", "allowed"],
  ["subscript", "echo ${y:x}", "bash", "deny", "cannot verify `${y:x}`: bash evaluates a substring offset"],
  ["subscript", "echo ${!x}", "bash", "deny", "cannot verify `${!x}`"],
  ["subscript", "mapfile -C pwned -c 1", "bash", "deny", "cannot verify `mapfile -C pwned -c 1`: `mapfile -C` runs a command"],
  ["subscript", "a[x]=1", "bash", "deny", "cannot verify `a[x]=1`: bash evaluates a variable in arithmetic"],
  ["subscript", "hash -p ./x ls; ls", "sh", "deny", "cannot verify `hash -p ./x ls`"],
  ["subscript", "PS4='$(pwned)'; set -x; ls", "sh", "deny", "cannot verify `PS4='$(pwned)'`: `PS4` is run as code later"],
  // deny lists: code fed to a shell, sourced files, aliases, wrappers
  ["deny", "echo pwned | sh", "sh", "deny", "cannot verify `sh`: a shell reading a script the rules cannot see"],
  ["deny", "echo pwned | sh -", "sh", "deny", "cannot verify `sh -`"],
  ["deny", "echo pwned | sh /dev/stdin", "sh", "deny", "cannot verify `sh /dev/stdin`"],
  ["deny", "echo pwned | bash -s", "sh", "deny", "cannot verify `bash -s`"],
  ["deny", "echo pwned | . /dev/stdin", "sh", "deny", "cannot verify `. /dev/stdin`: runs a script the rules cannot see"],
  ["deny", "source ./setup.sh", "sh", "deny", "cannot verify `source ./setup.sh`"],
  ["deny", "alias e=env\ne pwned", "sh", "deny", "cannot verify `alias e=env`: an alias changes what later commands run"],
  ["deny", "BASH_ENV=./s bash -c ls", "sh", "deny", "`BASH_ENV` is run as code later"],
  ["deny", "env 'BASH_FUNC_ls%%=() { pwned; }' bash -c ls", "sh", "deny", "`BASH_FUNC_ls%%` is run as code later"],
  ["deny", "bash build.sh", "sh", "deny", "allowed"],
  ["wrappers", "flock /tmp/lk pwned", "sh", "deny", "`pwned` matches deny entry"],
  ["wrappers", "flock -n /tmp/lk -c 'ls'", "sh", "deny", "cannot verify `flock -n /tmp/lk -c 'ls'`: `flock` runs code named by an option or the environment"],
  ["wrappers", "script -qc 'ls' /dev/null", "sh", "deny", "cannot verify `script -qc 'ls' /dev/null`"],
  ["wrappers", "prlimit -n1024 --cpu=10 pwned", "sh", "deny", "`pwned` matches deny entry"],
  ["wrappers", "setpriv --nnp --reuid=1000 pwned", "sh", "deny", "`pwned` matches deny entry"],
  ["wrappers", "setarch x86_64 -R pwned", "sh", "deny", "`pwned` matches deny entry"],
  ["wrappers", "linux64 pwned", "sh", "deny", "`pwned` matches deny entry"],
  ["wrappers", "unshare -r", "sh", "deny", "cannot verify `unshare -r`: `unshare` without a command starts a shell reading stdin"],
  ["wrappers", "su -c 'ls' nobody", "sh", "deny", "`su` runs its command through a shell"],
  ["wrappers", "watch -n 1 'pwned x'", "sh", "deny", "`pwned x` matches deny entry"],
  ["wrappers", "chrt -o 0 ionice -c 3 nice -n 5 taskset 1 pwned", "sh", "deny", "`pwned` matches deny entry"],
  ["wrappers", "timeout --frobnicate 5 ls", "sh", "deny", "cannot verify `timeout --frobnicate 5 ls`: `timeout` with options the checker does not model"],
  // what the previous corpus allowed on purpose still runs
  ["usable", "git status && git diff", "sh dash bash", "usable", "allowed"],
  ["usable", 'git commit -m "a && b; c | d"', "sh dash bash", "usable", "allowed"],
  ["usable", "ls -la | head -5", "sh dash bash", "usable", "allowed"],
  ["usable", "git log --oneline -3 2>/dev/null | grep fix", "sh dash bash", "usable", "allowed"],
  ["usable", "git commit -F - <<'EOF'\nfix: $(not run)\nEOF", "sh dash bash", "usable", "allowed"],
  ["usable", "find . -name '*.ts' -exec grep -l x {} +", "sh dash bash", "usable", "allowed"],
  ["usable", "git ls-files | xargs grep -l TODO", "sh dash bash", "usable", "allowed"],
  ["usable", "timeout 60 git fetch && git status", "sh dash bash", "usable", "allowed"],
  ["usable", "for f in a b; do git add $f; done", "sh dash bash", "usable", "`git add $f` matches no allow entry; `$f` is known only at run time"],
  ["usable", "for f in a b; do git add x; done", "sh dash bash", "usable", "allowed"],
];

describe.each([...new Set(rows.map((r) => r[0]))])("%s", (cls) => {
  test.each(rows.filter((r) => r[0] === cls).map(([, command, shells, list, names]) => [JSON.stringify(command), shells, list, names, command]))(
    "%s (%s, %s list): %s",
    (_title, shells, list, names, command) => {
      for (const shell of shells.split(" ")) {
        const d = decide("bash", { command }, compileRules(LISTS[list]!, shell).rules);
        if (names === "allowed") expect({ shell, d }).toEqual({ shell, d: { allowed: true } });
        else {
          expect({ shell, allowed: d.allowed }).toEqual({ shell, allowed: false });
          if (!d.allowed) {
            expect(d.reason.startsWith(BLOCKED_PREFIX)).toBe(true);
            expect(d.reason).toContain(names);
          }
        }
      }
    },
  );
});
