// Issue 24's differential corpus, generated: attacks that hide a program behind words decided at run
// time (globs and braces matching files named like options, xargs input), behind an assignment
// that is not a `NAME=value` word, or behind an option table that differs from the real program's,
// plus issue 30's `jobs -x`, `script LOG -c` and `sudo -e` shapes. Each template is spelled with
// several payloads and put in several contexts (chained, in a subshell, a group, an if, a loop, a
// case, a function). `{P}` is the payload: the stub `pwned`, which no policy allows. The working
// directory holds the files the attacks need (FILES): a file named `-exec`, one named `;`, an
// executable `./ls` and `./0/ls` that run the payload, an xargs argument file.
import { PAYLOAD } from "./corpus.ts";

export interface RuntimeCase {
  command: string;
  cls: string;
  /** the first spelling of its template (plain payload, no context) */
  first: boolean;
}

const TEMPLATES: Record<string, string[]> = {
  // a glob or brace word that the shell turns into find's -exec or its terminator
  globs: [
    "find . -maxdepth 0 -exe? {P} \\;",
    "find . -maxdepth 0 [-]exec {P} \\;",
    "find . -maxdepth 0 -[e]xec {P} {} +",
    "find . -maxdepth 0 -exe* {P} \\;",
    "find . -maxdepth 0 {-exec,{P},\\;}",
    "find . -maxdepth 0 -exec ls {} ? -exec {P} \\;",
    "x='-exec {P} ;'; find . -maxdepth 0 $x",
    "find . -maxdepth 0 $(echo -exec) {P} \\;",
    "find . -maxdepth 0 -ok{,} {P} \\; < /dev/null",
    "ls -exe?; find . -maxdepth 0 -name x",
    // with extglob on, bash reads `@(…)` on the next line as a pattern: `./@(ls)` runs ./ls
    "shopt -s extglob\n./@(ls) {P}",
    "bash -O extglob -c './@(ls) {P}'",
  ],
  // xargs input the checker cannot see: a pipe, a file, a here-string, a heredoc
  xargs: [
    "echo . -exec {P} \\; | xargs find",
    "printf '%s\\n' . -exec {P} ';' | xargs find",
    "xargs -a args find",
    "xargs find < args",
    "xargs find <<< '. -exec {P} ;'",
    "xargs find <<EOF\n. -exec {P} ;\nEOF",
    "echo x | xargs --eof {P} ls",
    "echo x | xargs -iX {P} X",
    "echo x | xargs -i {P} {}",
    "echo {P} | xargs -I{} sh -c {}",
    "echo {P} | xargs env",
    "echo -c {P} | xargs sh",
    "echo {P} | xargs -n1 env -S",
    "echo x | xargs -E {P} ls",
    "echo . | xargs -I% find % -maxdepth 0 -exec {P} \\;",
  ],
  // every way of assigning PATH (./ls and ./0/ls run the payload): the checker must not take `ls` for ls
  assignments: [
    "for PATH in .; do ls; done",
    "PATH=.; ls",
    "PATH=. ls",
    "PATH=. :; ls",
    "read PATH <<EOF\n.\nEOF\nls",
    "read -r PATH <<< .; ls",
    "echo . | { read PATH; ls; }",
    "while read PATH; do ls; done <<EOF\n.\nEOF",
    "printf -v PATH .; ls",
    "mapfile -t PATH <<< .; ls",
    "declare PATH=.; ls",
    "typeset PATH=.; ls",
    "export PATH=.; ls",
    "readonly PATH=.; ls",
    "f() { local PATH=.; ls; }; f",
    ": $((PATH=0)); ls",
    "echo $((PATH=0)) >/dev/null; ls",
    "((PATH=0)); ls",
    "let PATH=0; ls",
    "unset PATH; : ${PATH:=.}; ls",
    "unset PATH; : ${PATH=.}; ls",
    "getopts a: PATH -a .; ls",
    "cat <<EOF\n$((PATH=0))\nEOF\nls",
    "for PATH in 0; do :; done; ls",
    "select PATH in .; do ls; break; done <<< 1",
  ],
  // option tables as the programs read them: clusters, values inside clusters, abbreviations
  options: [
    "sh -oc noglob '{P}'",
    "sh -co noglob '{P}'",
    "sh -eoc noglob '{P}'",
    "bash -Oc extglob '{P}'",
    "sh +oc noglob '{P}'",
    "bash -c -- '{P}'",
    "dash -xc '{P}'",
    "sh -onoglob -c '{P}'",
    "bash --norc -c '{P}'",
    "env --split-str='{P}'",
    "env --ignore-env {P}",
    "timeout --sig=KILL 5 {P}",
    "nice --adj=5 {P}",
    "xargs --nu {P} < /dev/null",
  ],
  // bash's jobs -x, util-linux script's options after its log file, sudo's editor and VAR=value options
  runners: [
    "jobs -x {P}",
    "jobs -x {P} %1",
    "true & jobs -x {P} %1",
    "jobs -lx {P}",
    "script -q log -c '{P}'",
    "script log --command='{P}' -q",
    "script -q --command={P} log",
    "sudo -e notes",
    "SUDO_EDITOR={P} sudo -e notes",
    "VISUAL={P} sudoedit notes",
    "sudo VAR=1 -u root {P}",
    "sudo -u root VAR=1 {P}",
  ],
};

/** The contexts each template is put in: a script may hide it anywhere. */
const CONTEXTS = [
  "{T}",
  "true; {T}",
  "{T} && true",
  "{T} || true",
  "x=1; {T}",
  "! {T}",
  "( {T} )",
  "{ {T}; }",
  "if true; then {T}; fi",
  "for i in 1; do {T}; done",
  "case a in a) {T};; esac",
  "g() { {T}; }; g",
];
const PAYLOADS = [PAYLOAD, `${PAYLOAD} 1`, `p'w'ned`];
/** A payload every policy allows: the same structures run, and the checker must have seen exactly that. */
const HARMLESS = "ls hidden";

/** The working directory every run starts in: `bin` is the run's stub directory. */
export function FILES(bin: string): Record<string, { text: string; mode?: number }> {
  const runs = `#!/bin/sh\nexec '${bin}/${PAYLOAD}' via-cwd "$@"\n`;
  return {
    "-exec": { text: "" },
    ";": { text: "" },
    ls: { text: runs, mode: 0o755 },
    "0/ls": { text: runs, mode: 0o755 },
    args: { text: `. -exec ${PAYLOAD} ;\n` },
    notes: { text: "a\n" },
  };
}

export function generateRuntimeCorpus(): RuntimeCase[] {
  const out: RuntimeCase[] = [];
  const seen = new Set<string>();
  const add = (cls: string, command: string, first: boolean) => {
    if (seen.has(command)) return;
    seen.add(command);
    out.push({ cls, command, first });
  };
  for (const [cls, templates] of Object.entries(TEMPLATES)) {
    for (const template of templates) {
      for (const context of CONTEXTS) {
        // a heredoc's body must stay at the start of its lines
        if (template.includes("<<EOF") && context !== "{T}" && !context.startsWith("{T}")) continue;
        for (const p of [...PAYLOADS, HARMLESS]) add(cls, context.replace("{T}", template.replaceAll("{P}", p)), context === "{T}" && p === PAYLOAD);
      }
    }
  }
  return out;
}
