// A script the command writes and then runs (SPEC §8, deny lists): `cat > s.sh <<EOF … EOF; sh
// s.sh`, `echo 'rm -rf x' > s.sh && bash s.sh`, `printf … > t.py; python3 t.py`, `… > s && ./s`.
// What the file holds is seen where the command gives it — a heredoc, a here-string, the words
// of `echo`/`printf` — and counts as the words of the command that runs it (namedUnseen), as a
// heredoc given to `python3 -` does. A file the command writes from anything else (`curl … >
// s.sh`, `tee s.sh`) holds what only the run knows, so running it is refused. Files are compared by
// name as written (`./s.sh` is `s.sh`); a script written by an earlier call, by write_file, or
// under another name is not seen. Pure.
import { program } from "./match.ts";
import { pathForm } from "./path-form.ts";
import { DATA_PROGRAMS } from "./programs.ts";
import type { Segment, Word } from "./shell-model.ts";

/** Programs that run a file named as their first operand as code. */
const RUNNERS = new Set(
  "sh,bash,dash,zsh,ksh,mksh,fish,python,python2,python3,node,nodejs,bun,deno,perl,ruby,php,lua,tclsh,Rscript,awk,gawk,make,env,nohup,timeout,nice".split(","),
);
/** Programs of DATA_PROGRAMS that write the files they name. */
const WRITERS = new Set(["tee", "cp", "mv", "ln", "install", "dd"]);
/** Programs whose output is their words (`echo`, `printf`) or what they read from a heredoc (`cat`). */
const VISIBLE = new Set(["echo", "printf", "cat"]);

const known = (w: Word | undefined): w is Word => !!w && !w.unknown && !w.glob && !w.anyValue;
const FORM = { caseless: false, backslash: false };

/** The files the segments write by redirection, by name as written (pathForm), with what they hold when it can be seen (else undefined). */
function writtenFiles(segments: Segment[]): Map<string, string | undefined> {
  const files = new Map<string, string | undefined>();
  for (const s of segments) {
    const name = s.words[0] && known(s.words[0]) ? program(s.words[0].text) : undefined;
    const input = s.redirects.flatMap((r) => (r.body !== undefined ? [r.body] : /^\d*<<<$/.test(r.op) ? [r.target.text] : []));
    const content = name && VISIBLE.has(name) && (name !== "cat" || input.length) ? [...s.words.slice(1).map((w) => w.text), ...input].join("\n") : undefined;
    const add = (key: string, text: string | undefined) => {
      const before = files.get(key);
      files.set(key, text === undefined || (files.has(key) && before === undefined) ? undefined : `${before ?? ""}${text}\n`);
    };
    for (const r of s.redirects) if (/^\d*(>|>>|>\||&>|&>>)$/.test(r.op) && known(r.target)) add(pathForm(r.target.text, FORM), content);
    // a file a program names, unless it surely leaves the content alone (`chmod +x s.sh`): `tee s.sh`, `cp x s.sh`, `curl -o s.sh`
    if (!name || WRITERS.has(name) || !DATA_PROGRAMS.has(name))
      for (const w of s.words.slice(1)) if (known(w)) add(pathForm(w.text.replace(/^-[A-Za-z]|^--[a-z-]+=/, ""), FORM), undefined);
  }
  return files;
}

/**
 * For a segment that runs a file the segments before it write: what it holds (a heredoc redirection to add to
 * the segment, so that a deny entry's program named in it is seen), or why it cannot be known.
 */
export function writtenScript(seg: Segment, segments: Segment[]): { seg: Segment } | { unknown: string } | undefined {
  const [first, ...args] = seg.words;
  if (!first || !known(first) || seg.inert) return undefined;
  const name = program(first.text);
  const operand = args.find((w) => !known(w) || !w.text.startsWith("-"));
  const file = first.text.includes("/") ? first : RUNNERS.has(name) && known(operand) ? operand : undefined;
  if (!file) return undefined;
  const written = writtenFiles(segments.slice(0, Math.max(0, segments.indexOf(seg)))); // what runs before it
  const key = pathForm(file.text, FORM);
  if (!written.has(key)) return undefined;
  const body = written.get(key);
  if (body === undefined) return { unknown: `runs \`${file.raw}\`, which this command writes with what only the run knows` };
  return { seg: { ...seg, redirects: [...seg.redirects, { op: "<<", target: file, body }] } };
}

/** Interpreters that read their program from stdin when given none, and their options that give it inline or name a module. */
const STDIN_INTERPRETERS = new Set(["python", "python2", "python3", "node", "nodejs", "perl", "ruby", "php", "lua"]);
const INLINE = /^(-c|-m|-e|-E|-p|-r|--eval|--print|-[A-Za-z]*[cme])$/;

/**
 * Why a segment runs a program read from a pipe (`echo 'import os; os.system("rm x")' | python3`,
 * `curl … | node -`): an interpreter after a pipe given no program — no script, no `-c`/`-e` — and
 * no heredoc, here-string or file on stdin reads its program from what the pipe carries, which no
 * rule sees. Without a pipe it reads hey's stdin, which holds nothing.
 */
export function pipedProgram(seg: Segment): string | undefined {
  const [first, ...args] = seg.words;
  if (!seg.piped || !first || !known(first) || !STDIN_INTERPRETERS.has(program(first.text))) return undefined;
  if (seg.redirects.some((r) => /^0?<(<<|<-|<)?$/.test(r.op) || r.op === "<")) return undefined;
  if (!args.every((w) => known(w) && (w.text === "-" || (w.text.startsWith("-") && !INLINE.test(w.text))))) return undefined;
  if (args.some((w) => /^(-V|-v|--version|-h|--help|-\?)$/.test(w.text))) return undefined; // prints and exits
  return `\`${program(first.text)}\` reads its program from stdin, which the rules cannot see`;
}
