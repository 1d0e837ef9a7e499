// The differential corpus of issue 9, generated: attempts to run a hidden program, grouped by the
// class of shell semantics they use, each spelled with several payloads and mutated (line
// continuations inserted, separators swapped), plus the bypass corpus and commands that must stay
// usable. `{P}` in a template is the payload: a call of the stub program `pwned`, which a policy
// never allows. Nothing here names a real file outside the test's own directories.
import { allowed as usableBefore, refused as bypasses } from "./bypass-corpus.ts";

export interface Case {
  command: string;
  /** the class of shell semantics it exercises ("bypass" and "usable" for the older corpora) */
  cls: string;
  /** the first spelling of its template (the plain payload, no mutation) */
  first: boolean;
}

/** The program every attempt tries to run. */
export const PAYLOAD = "pwned";

const TEMPLATES: Record<string, string[]> = {
  continuation: [
    'echo "$\\\n({P})"',
    "echo $\\\n({P})",
    'echo "a\\\n$({P})"',
    "echo `echo \\\\\n{P}`",
    "echo \\\\\n{P}",
    "echo '\\\n'; {P}",
    "# note \\\n{P}",
    "fo\\\nr x in a; do {P}; done",
    "echo ${x:-\\\n$({P})}",
    "echo $(\\\n{P})",
    "l\\\ns; {P}",
    "cat <<E\\\nOF\nbody\nEOF\n{P}",
    "cat <<EOF\na\\\nEOF\n$({P})\nEOF",
    "cat <<EOF\nEO\\\nF\n$({P})\nEOF",
    "cat <<-EOF\n\tEO\\\n\tF\n$({P})\nEOF",
    "cat <<'EOF'\nEO\\\nF\n$({P})\nEOF\n{P}",
    "cat <<EOF\nEO\\\nF\n{P}\nEOF",
    "cat <<-EOF\n\tEO\\\nF\n{P}\nEOF",
    "echo 'a\\\nb' && {P}",
    "ls \\\n&& {P}",
    'echo "`{P}\\\n`"',
  ],
  dialect: [
    "ls &>/dev/null {P}",
    "ls &>> out {P}",
    "ls &> out; {P}",
    "ls |& {P}",
    "cat <<< x; {P}",
    "cat <(ls) && {P}",
    "echo $'\\x41' && {P}",
    "ls $'\\x2d'l; {P}",
    "cat <<$'EOF'\nEOF\n{P} 1\n$EOF\n{P} 2\n$'EOF'",
    'cat <<$"EOF"\nEOF\n{P} 1\n$EOF\n{P} 2\n$"EOF"',
    'cat <<"E\nF"\nE\nF\n{P}',
    'echo $"{P}"',
    "ls {fd}>/dev/null {P}",
    "ls >& out; {P}",
    "echo {a,b} && {P}",
    "ls 2>&1- && {P}",
    "echo a=~/x && {P}",
  ],
  grammar: [
    "set -- a; for x do {P}; done",
    "set -- a; for x\ndo {P}; done",
    "for x in a do {P}; do ls $x; done",
    "for x\nin a; do {P}; done",
    "cat <<EOF; for x in $(\n{P}\nEOF\n); do :; done\nEOF",
    "cat <<EOF; echo $(\n{P}\nEOF\n)\nEOF",
    "cat <<EOF; (\n{P}\nEOF\n)\nEOF",
    'cat <<EOF; x "\nEOF\n"\nEOF\n{P}',
    "echo $(cat <<EOF\nEOF)\n{P}\nEOF\n)",
    "echo `cat <<EOF\nEOF`\n{P}\nEOF\n`",
    "cat <<EOF\n$(\nEOF\n{P}\n)\nEOF",
    "if (ls) then {P}; fi",
    "{ ls; } > /dev/null; {P}",
    "! {P}",
    "while false; do :; done; {P}",
    "case x in x) {P};; esac",
    "f() { {P}; }; f",
    "[[ -n x ]] && {P}",
    "select x in a; do {P}; break; done",
    "a=1 if true; then {P}; fi",
    // bash's [[ ]], builtins that run nothing, variables only ever set to numbers (issue 30)
    "[[ -n $({P}) ]] && {P}",
    "[[ $x == y* || -f x ]] || {P}",
    "[[ a =~ (b|c) ]] || {P}",
    "[[ a == @(b|c) ]] || [[ -v a[1] ]] || {P}",
    "i=0; while [[ $i -lt 1 ]]; do {P}; i=$((i+1)); done",
    "true & pid=$!; wait $pid; {P}",
    "command -v {P}; type {P} >/dev/null; {P}",
    "trap - INT; trap -p; kill -l >/dev/null; {P}",
    "a+=b; {P}",
    "%1; %?x & complete -C {P} x; [[ $RANDOM -ge 0 ]] && {P}",
    "$(false) $(exit 3) {P}; $(echo) $(unset x)",
    "true() { echo {P}; }; $(true)",
    "eval 'false() { echo {P}; }'; $(false)",
    "function : { echo {P}; }; $(:)",
  ],
  subscript: [
    "printf -v 'a[$({P})]' x",
    "test -v 'a[$({P})]'",
    "[ -v 'a[$({P})]' ]",
    "read 'a[$({P})]' <<EOF\n1\nEOF",
    "declare 'a[$({P})]=1'",
    "x='a[$({P})]'; let x",
    "x='a[$({P})]'; echo $((x))",
    "x='a[$({P})]'; echo $(( $x ))",
    "declare -a a; unset 'a[$({P})]'",
    "declare -a a; x='a[$({P})]'; echo ${a[x]}",
    "y=abc; x='a[$({P})]'; echo ${y:x}",
    "x='a[$({P})]'; [[ $x -eq 1 ]]",
    "x='a[$({P})]'; [[ 1 -lt x ]]",
    "[[ -v 'a[$({P})]' ]]",
    "x='a[$({P})]'; [[ -v $x ]]",
    "[[ a == @($({P})) ]]",
    "[[ a =~ ($({P})) ]]",
    "RANDOM='a[$({P})]'",
    "x='a[$({P})]'; OPTIND=x",
    "for SRANDOM in 'a[$({P})]'; do :; done",
    "read HISTCMD <<'EOF'\na[$({P})]\nEOF",
    "declare -i n; n='a[$({P})]'",
    "f() { local -i n; n=$1; }; f 'a[$({P})]'",
    "declare -i REPLY; read <<'EOF'\na[$({P})]\nEOF",
    "x=0; x='a[$({P})]'; echo $((x))",
    "x=0; read x <<'EOF'\na[$({P})]\nEOF\necho $((x))",
    "REPLY=0; read <<'EOF'\na[$({P})]\nEOF\necho $((REPLY))",
    "x='a[$({P})]'; x=0 true; echo $((x))",
    "x='a[$({P})]'; i=0; echo ${a[i+x]}",
    "true & pid='-n -p a[$({P})]'; wait $pid",
    "compgen -W '$({P})' x",
    "compgen -W 'a b' x; {P}",
    "x='a[$({P})]'; echo ${!x}",
    "x='a[$({P})]'; declare -i n=$x",
    "declare -n r='a[$({P})]'; echo $r",
    "declare -a a='([$({P})]=1)'",
    "x='a[$({P})]'; printf -v $x y",
    "x='a[$({P})]'; [ -v $x ]",
    "mapfile -C {P} -c 1 <<EOF\na\nEOF",
    "PS4='$({P})'; set -x; ls",
    "x='a[$({P})]'; a[x]=1",
    "hash -p ./x ls; ls",
  ],
  deny: [
    "echo {P} | sh",
    "echo {P} | sh -",
    "echo {P} | sh /dev/stdin",
    "echo {P} | bash -s",
    "echo {P} | . /dev/stdin",
    "echo {P} > s; . ./s",
    "echo {P} > s; source ./s",
    "alias e=env\ne {P}",
    "alias ls={P}\nls",
    "echo {P} > s; BASH_ENV=./s bash -c ls",
    "env 'BASH_FUNC_ls%%=() { {P}; }' bash -c ls",
    "eval {P}",
    "trap {P} EXIT",
    "sh -c {P}",
    "bash -c '{P}'",
    "dash -c '{P}'",
    "find . -maxdepth 0 -exec {P} \\;",
    "echo . | xargs {P}",
  ],
  wrappers: [
    "flock lk {P}",
    "flock lk -c {P}",
    "flock -n lk {P}",
    "script -qc {P} /dev/null",
    "prlimit {P}",
    "prlimit -n1024 {P}",
    "prlimit --nofile=1024 {P}",
    "setpriv {P}",
    "setpriv --nnp {P}",
    "setarch x86_64 {P}",
    "setarch x86_64 -R {P}",
    "linux64 {P}",
    "setsid {P}",
    "setsid -w {P}",
    "taskset 1 {P}",
    "ionice -c 3 {P}",
    "chrt -o 0 {P}",
    "choom -n 0 {P}",
    "nice -n 5 {P}",
    "timeout 5 {P}",
    "env {P}",
    "env -u X {P}",
    "env A=1 {P}",
    "stdbuf -o0 {P}",
    "nohup {P}",
    "time {P}",
    "command {P}",
    "exec {P}",
  ],
  // no payload: allowed, so the argv each shell builds is compared with the checker's words
  values: [
    "ls a=~/x b=c:~/y --prefix=~/z",
    "ls ~ ~/x x~",
    "ls 'a b' \"c d\" e\\ f ''",
    "ls $'\\x41' $\"b\"",
    'ls "$(echo a)" `echo b`',
    "ls {a,b} c* [d]",
    "ls a\\\nb 'c\\\nd' \"e\\\nf\"",
    "ls $'g\\\nh'",
    "ls \\$x \"\\$y\" '$z'",
    "ls a#b #c",
    'x=1; ls $x ${x} "${x}" ${x:-d} ${#x}',
    "ls 2>&1 3>/dev/null a",
    "cat <<EOF\n$(ls a)\nEOF",
    "ls `ls \\`ls b\\``",
    "ls `ls 'a\\\nb'` \"`ls 'c\\\nd'`\"",
  ],
  usable: [
    "git status && git diff",
    'echo "a && b; c | d"',
    "ls -la | head -5",
    "ls; git log --oneline -3",
    "git commit -F - <<'EOF'\nfix: $(not run)\nEOF",
    "git commit -m \"$(cat <<'EOF'\nsubject\n\nbody\nEOF\n)\"",
    "cat <<EOF\nhello $(ls)\nEOF",
    "for f in a b; do echo $f; done",
    "if git diff --quiet; then echo clean; else echo dirty; fi",
    "ls \\\n-la",
    "echo 'it''s' \"q\\\"uote\"",
    "timeout 5 git status",
    "find . -name '*.ts' -exec grep -l x {} +",
    "git ls-files | xargs grep -l TODO",
    "echo ok > /dev/null 2>&1",
    "printf '%s\\n' a b | sort",
  ],
};

/** Ways to spell the payload: a plain call, with an argument, with quoting the shell removes. */
const PAYLOADS = [PAYLOAD, `${PAYLOAD} 1`, `p'w'ned`];
/**
 * A payload every policy allows: the same structures then run, so the differential test checks
 * that the checker saw exactly the program and words the shell ran, not only that it refused.
 */
export const HARMLESS = "ls hidden";

/** A continuation inserted at `at` (a fraction of the length), where it splits no `\`-escape. */
function continuation(command: string, at: number): string {
  let i = Math.floor(command.length * at);
  while (i > 0 && command[i - 1] === "\\") i--;
  return command.slice(0, i) + "\\\n" + command.slice(i);
}

/**
 * bash's `[[ … ]]` and arithmetic, generated (issue 30): random conditional expressions over
 * operands that hold code in their values (`x='a[$(pwned)]'`), variables the script sets to numbers
 * or not, indexed and associative arrays, followed by arithmetic that reads them. Deterministic.
 */
function conditionals(count: number): string[] {
  let seed = 30;
  const pick = <T>(a: T[]): T => a[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % a.length]!;
  const operands = [
    "$x",
    "x",
    "1",
    "$i",
    "i",
    '"$x"',
    "a[1]",
    "a[i]",
    "$$",
    "${#a[@]}",
    "0x1f",
    "-1",
    "$RANDOM",
    "${a[i]}",
    "${a[x]}",
    "${b[k]}",
    "${b[$x]}",
    "''",
    "y*",
    "$j",
    "j",
    "$(ls)",
  ];
  const binary = ["==", "=", "!=", "=~", "-eq", "-lt", "-ge", "-nt", "<", ">"];
  const unary = ["-n", "-z", "-v", "-f", "-o", "-R", "-t"];
  const right = (op: string) =>
    op === "=~" ? pick(["(a|b)", "^x$", "$x", "x(y z)|w"]) : op === "==" ? pick(["@(a|b)", "!(c)", "*", "$x", "a[$x]"]) : pick(operands);
  const term = (d: number): string => {
    const kind = pick([0, 1, 2, 3, 4, 5]);
    if (kind === 0 && d < 2) return `( ${expr(d + 1)} )`;
    if (kind === 1 && d < 2) return `! ${term(d + 1)}`;
    if (kind === 2) return `${pick(unary)} ${pick(operands)}`;
    if (kind === 3) return pick(operands);
    const op = pick(binary);
    return `${pick(operands)} ${op} ${right(op)}`;
  };
  const expr = (d: number): string => (pick([0, 1, 2]) ? term(d) : `${term(d)} ${pick(["&&", "||"])} ${expr(d + 1)}`);
  const before = [
    "",
    "i=0; j=$i; ",
    "declare -A b; i=$((1+1)); ",
    "i=1; declare -A b=([k]=v); a=(1 2); j=$!; ",
    "i=$x; ",
    "i=0; read i <<'E'\na[$(pwned)]\nE\n",
    "for j in $x; do :; done; i=0; ",
  ];
  const after = ["", "; echo $((i + j))", "; echo ${a[i]} ${b[$x]}", "; b[$x]=1; a[i]=2", "; wait $j", "; while [[ $i -lt 2 ]]; do i=$((i+1)); done"];
  return Array.from({ length: count }, () => `x='a[$(${PAYLOAD})]'; ${pick(before)}[[ ${expr(0)} ]] && echo ok${pick(after)}`);
}

/** The generated corpus: every template with each payload and two mutations, and with the harmless payload and one. */
export function generateCorpus(): Case[] {
  const out: Case[] = [];
  const seen = new Set<string>();
  const add = (cls: string, command: string, first = false) => {
    if (seen.has(command)) return;
    seen.add(command);
    out.push({ cls, command, first });
  };
  for (const [cls, templates] of Object.entries(TEMPLATES)) {
    for (const template of templates) {
      for (const p of PAYLOADS) add(cls, template.replaceAll("{P}", p), p === PAYLOAD);
      const base = template.replaceAll("{P}", PAYLOAD);
      add(cls, continuation(base, 0.5));
      add(cls, base.includes("; ") ? base.replace("; ", "\n") : continuation(base, 0.25));
      const harmless = template.replaceAll("{P}", HARMLESS);
      add(cls, harmless);
      add(cls, continuation(harmless, 0.5));
    }
  }
  for (const [i, command] of conditionals(400).entries()) add("conditional", command, i % 20 === 0);
  for (const [, command] of bypasses) add("bypass", command);
  for (const [, command] of usableBefore) add("usable", command);
  return out;
}
