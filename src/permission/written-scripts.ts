// A script the command writes and then runs (SPEC §8, deny lists): `cat > s.sh <<EOF … EOF; sh
// s.sh`, `echo 'rm -rf x' > s.sh && bash s.sh`, `printf … > t.py; python3 t.py`, `… > s && ./s`,
// `printf … > Makefile && make`. What the file holds is worked out exactly from what writes it —
// `echo`, `printf`, `cat` of a heredoc or a here-string (written-text.ts) — and counts as the words
// of the command that runs it (namedUnseen), as a heredoc given to `python3 -` does; a shell's
// script is also read as shell (shell-texts.ts). A file the command writes from anything else
// (`curl … > s.sh`, `tee s.sh`), or with text known only at run time, is refused when run. Files
// are compared by name as written (`./s.sh` is `s.sh`); a script written by an earlier call, by
// write_file, or under another name is not seen. Pure.
import { program } from "./match.ts";
import { pathForm } from "./path-form.ts";
import { DATA_PROGRAMS } from "./programs.ts";
import { absent, namedElsewhere, type RunFile, runFiles, samePlace, type Where } from "./script-files.ts";
import { known, type Segment, type Word } from "./shell-model.ts";
import { stdinSources, unopened } from "./shell-stdin.ts";
import { echoText, printfText, stdinText, type Written } from "./written-text.ts";

/** Programs of DATA_PROGRAMS that write the files they name. */
const WRITERS = new Set(["tee", "cp", "mv", "ln", "install", "dd"]);

const programOf = (s: Segment) => (s.words[0] && known(s.words[0]) ? program(s.words[0].text) : "");
const FORM = { caseless: false, backslash: false };
const RUN_TIME: Written = { why: "writes with what only the run knows" };

/** What a segment writes to its stdout, exactly (written-text.ts); a program other than echo, printf or cat: known only at run time. */
function output(s: Segment, name: string | undefined): Written {
  const args = s.words.slice(1);
  if (name === "echo") return echoText(args);
  if (name === "printf") return printfText(args);
  if (name !== "cat" || !args.every((w) => known(w) && w.text === "-")) return RUN_TIME;
  return stdinText(stdinSources(s)) ?? RUN_TIME;
}

/** The files the segments write by redirection, by name as written (pathForm), with what they hold (written-text.ts). */
function writtenFiles(segments: Segment[]): Map<string, Written> {
  const files = new Map<string, Written>();
  for (const s of segments) {
    const name = s.words[0] && known(s.words[0]) ? program(s.words[0].text) : undefined;
    const add = (key: string, w: Written, append: boolean) => {
      const before = files.get(key);
      if (!before) files.set(key, w);
      else if ("why" in before) return;
      // a second `>` replaces what the first wrote, unless a condition skipped it: which one runs is known only then
      else files.set(key, !append ? { why: "writes more than once" } : "why" in w ? w : { text: before.text + w.text });
    };
    for (const r of s.redirects)
      if (/^\d*(>|>>|>\||&>|&>>)$/.test(r.op) && known(r.target)) add(pathForm(r.target.text, FORM), output(s, name), r.op.endsWith(">>"));
    // a file a program names, unless it surely leaves the content alone (`chmod +x s.sh`): `tee s.sh`, `cp x s.sh`, `curl -o s.sh`
    if (!name || WRITERS.has(name) || !DATA_PROGRAMS.has(name))
      for (const w of s.words.slice(1)) if (known(w)) add(pathForm(w.text.replace(/^-[A-Za-z]|^--[a-z-]+=/, ""), FORM), RUN_TIME, false);
  }
  return files;
}

/** A script the segments before `seg` write and `seg` runs: the file as named, who runs it (a program, or the file itself), and what it holds. */
export interface WrittenScript {
  file: Word;
  runner: string;
  text: string;
}

/**
 * Runners whose file is read as shell (or as a makefile): one written by anything, or not there
 * yet, is refused unread. Not env, nohup, timeout or nice: their first operand may be no file
 * (`env NODE_ENV=test …`, `timeout 5 …`), and the command they run is a segment of its own.
 */
const SHELLISH = new Set(["", "sh", "bash", "rbash", "dash", "zsh", "ksh", "mksh", "fish", "make"]);

/**
 * For a segment that runs a file the segments before it write: what it holds, or why it cannot be
 * known before the command runs. Undefined: it runs no such file. A file run as shell or as a
 * makefile whose text is not known exactly is refused when another segment names it (and so could
 * write it: `sed -n 'w s.sh'`, `python3 -c 'open("s.sh","w")…'`) or when it is not there yet.
 */
export function writtenScript(seg: Segment, segments: Segment[], where: Where): WrittenScript | { unknown: string } | undefined {
  const runs = runFiles(seg);
  if (!runs.length) return undefined;
  const written = writtenFiles(segments.slice(0, Math.max(0, segments.indexOf(seg)))); // what runs before it
  for (const run of runs) {
    const found = [...written].filter(([name]) => samePlace(name, run.file.text, segments, where)).map(([, w]) => w);
    const why = found.find((w) => "why" in w);
    if (why && "why" in why) return { unknown: `runs \`${run.file.raw}\`, which this command ${why.why}` };
    const body = found[0];
    if (body && "text" in body) return { file: run.file, runner: run.runner, text: body.text };
  }
  return unverified(runs, seg, segments, where);
}

/**
 * Programs that build programs: the file a build writes and the command then runs (`cargo build &&
 * ./target/debug/app`, `make && ./app`) is a program, not text a deny list could have read, so it
 * counts as written by them only as their own words name it (writtenFiles), as before.
 */
const BUILDERS = new Set(
  "cargo,go,gcc,cc,clang,g++,c++,clang++,rustc,make,cmake,ninja,meson,zig,javac,tsc,swiftc,dotnet,mvn,gradle,npm,pnpm,yarn,bun,deno".split(","),
);

/** The segments that count as writing `run`'s file: for a file run as itself (`./app`), which a build may have written, not a builder. */
const textWriters = (run: RunFile) => (run.runner === "" ? (s: Segment) => !BUILDERS.has(programOf(s)) : undefined);

/** A script run as shell or as a makefile that the command could have written without saying what: why, or undefined. */
function unverified(runs: RunFile[], seg: Segment, segments: Segment[], where: Where): { unknown: string } | undefined {
  for (const run of runs) {
    if (!SHELLISH.has(run.runner)) continue;
    const by = namedElsewhere(run.file.text, seg, segments, where, textWriters(run));
    if (by) return { unknown: `runs \`${run.file.raw}\`, which \`${by}\` names and so could write: what it holds is known only when it runs` };
  }
  const run = runs[0]!;
  if (SHELLISH.has(run.runner) && !run.defaults && absent(run.file.text, seg, segments, where, textWriters(run)))
    return { unknown: `runs \`${run.file.raw}\`, which is not there yet: what this command writes into it is known only when it runs` };
  return undefined;
}

/** The segment as the deny list reads a written script's runner: what the file holds given as a heredoc, so that a deny entry's program named in it is seen. */
export function withScript(seg: Segment, script: WrittenScript): Segment {
  return { ...seg, redirects: [...seg.redirects, { op: "<<", target: script.file, body: script.text }] };
}

/** Interpreters that read their program from stdin when given none, and their options that give it inline or name a module. */
const STDIN_INTERPRETERS = new Set(["python", "python2", "python3", "node", "nodejs", "perl", "ruby", "php", "lua"]);
const INLINE = /^(-c|-m|-e|-E|-p|-r|--eval|--print|-[A-Za-z]*[cme])$/;

/**
 * Why a segment runs a program read from a pipe (`echo 'import os; os.system("rm x")' | python3`,
 * `curl … | node -`, `python3 < <(curl …)`): an interpreter after a pipe, or reading a process
 * substitution on stdin, given no program — no script, no `-c`/`-e` — and
 * no heredoc, here-string or file on stdin reads its program from what the pipe carries, which no
 * rule sees. Without a pipe it reads hey's stdin, which holds nothing.
 */
export function pipedProgram(seg: Segment): string | undefined {
  const [first, ...args] = seg.words;
  if (!first || !known(first) || !STDIN_INTERPRETERS.has(program(first.text))) return undefined;
  // `python3 < <(…)`, `exec 3< <(…); python3 <&3`: a process substitution is a pipe too; an fd the
  // command does not open (`python3 <&3`) may hold one, opened where hey does not look (`eval 'exec 3<…'`)
  const substituted = stdinSources(seg).some((r) => r.target.raw.startsWith("<(") || unopened(r));
  if (!substituted && (!seg.piped || seg.redirects.some((r) => /^0?<(<<|<-|<)?$/.test(r.op) || r.op === "<"))) return undefined;
  if (!args.every((w) => known(w) && (w.text === "-" || (w.text.startsWith("-") && !INLINE.test(w.text))))) return undefined;
  if (args.some((w) => /^(-V|-v|--version|-h|--help|-\?)$/.test(w.text))) return undefined; // prints and exits
  return `\`${program(first.text)}\` reads its program from stdin, which the rules cannot see`;
}
