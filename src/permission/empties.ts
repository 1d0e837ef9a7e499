// Emptying a file that an `rm` deny entry names (SPEC §8): `: > build.log`, `> build.log`, `cat
// /dev/null > build.log`, `truncate -s 0 build.log` and `cp /dev/null build.log` leave it with nothing
// in it, which `bash: rm build.log` keeps the agent from doing; with `-r` in the entry (`rm -rf
// build`), any file under the directory it names. Only under an entry that names its operands: a
// redirection cannot tell emptying a file from making one (`: > new.txt`), so under `rm *` this
// would refuse every such way of creating a file, while the paths an entry names are ones the user
// means to keep. Pure.
import { globMatch, type Pattern, program } from "./match.ts";
import { type Form, pathForm } from "./path-form.ts";
import type { Segment, Word } from "./shell-model.ts";
import { truncateGrows } from "./spares.ts";

const known = (w: Word | undefined): w is Word => !!w && !w.unknown && !w.glob;
const isOption = (w: Word) => !w.unknown && /^-./.test(w.text) && w.text !== "--";
/** A redirection that empties its file before the command writes: `>`, `>|`, `1>`, `&>` (not `>>`, not `>&`). */
const EMPTIES = /^(1?>\|?|&>)$/;

/** Does the segment's command write nothing to its output: none, `:`, `true`, `false`, `cat /dev/null`, `echo -n`, `printf ''`? */
function writesNothing(seg: Segment): boolean {
  const w = seg.words.map((x) => (known(x) ? x.text : undefined));
  if (!w.length) return true;
  if (w.length === 1) return [":", "true", "false"].includes(w[0] ?? "");
  return w.length === 2 && ((w[0] === "cat" && w[1] === "/dev/null") || (w[0] === "echo" && w[1] === "-n") || (w[0] === "printf" && w[1] === ""));
}

/**
 * The files a segment empties: the targets of its emptying redirections when it writes nothing,
 * and (`tools`) those of `truncate` and `cp /dev/null`, which an entry without `-r` refuses by name already (equivalents.ts).
 */
function emptied(seg: Segment, tools: boolean): Word[] {
  const first = seg.words[0];
  const name = known(first) ? program(first.text) : "";
  const out = writesNothing(seg) ? seg.redirects.filter((r) => EMPTIES.test(r.op)).map((r) => r.target) : [];
  // truncate(1): "Shrink or extend the size of each FILE"; its operands (a `-s 0` value among them, which names no file)
  if (tools && name === "truncate" && !truncateGrows(seg)) out.push(...seg.words.slice(1).filter((w) => !isOption(w)));
  // cp(1) from /dev/null: the last operand is left empty
  if (tools && name === "cp" && seg.words.some((w) => w.text === "/dev/null")) out.push(...seg.words.slice(-1));
  return out.filter(known);
}

/** Why a segment empties a file that `rm` deny entry `p` names, or undefined. `caseless`: file names ignore case. */
export function emptiesNamed(seg: Segment, p: Pattern, caseless: boolean): string | undefined {
  const command = p.words[0];
  if (!known(command) || program(command.text) !== "rm" || p.redirects.length) return undefined;
  // the paths it spells out (`rm build.log` is `rm build.log *`: the `*` names no path of its own)
  const operands = p.words.slice(1).filter((w) => !isOption(w) && w.text !== "--" && !(w.glob && w.raw === "*"));
  if (!operands.length || operands.some((w) => w.unknown)) return undefined;
  const recursive = p.words.slice(1).some((w) => isOption(w) && (/^-[^-]*[rR]/.test(w.text) || /^--rec/.test(w.text)));
  const form: Form = { caseless, backslash: false };
  const named = operands.map((w) => pathForm(w.text, form));
  for (const target of emptied(seg, recursive)) {
    const t = pathForm(target.text, form);
    // `rm -rf .` names every file (`./*` is no file's form), and with it every way of making one: not read so
    const hit = named.find((n) => globMatch(n, t) || (recursive && globMatch(`${n}/*`, t)));
    if (hit) return `it empties \`${target.raw}\` (the entry names \`${hit}\`)`;
  }
  return undefined;
}
