// Emptying a file under an `rm` deny entry (SPEC §8): `: > build.log`, `> build.log`, `cat /dev/null
// > build.log`, `truncate -s 0 build.log` and `cp /dev/null build.log` leave a file with nothing in
// it, which `bash: rm build.log` keeps the agent from doing; with `-r` in the entry (`rm -rf build`),
// any file under the directory it names. An entry naming no file without `-r` (`rm *`, `rm -f *`:
// "destroy no file") refuses emptying any file by redirection (truncate and cp /dev/null are its
// equivalents already); `rm -rf *` lets `rm -f x` run, and so emptying one file. A redirection cannot
// tell emptying a file from making one (`: > new.txt`): the file system can (on-disk.ts), so
// emptying a name where there is nothing, or an empty file, runs; where hey cannot look, it is
// refused. Pure.
import { globMatch, harmless, type Pattern, program } from "./match.ts";
import { type Form, pathForm } from "./path-form.ts";
import { type Disk, linksTo, stateOf } from "./on-disk.ts";
import type { Segment, Word } from "./shell-model.ts";
import { truncateGrows } from "./spares.ts";

const known = (w: Word | undefined): w is Word => !!w && !w.unknown && !w.glob;
const isOption = (w: Word) => !w.unknown && /^-./.test(w.text) && w.text !== "--";
/** A redirection that empties its file before the command writes: `>`, `>|`, `1>`, `2>` (any fd), `&>` (not `>>`, not `>&`). */
const EMPTIES = /^(\d*>\|?|&>)$/;
/** Terminals and a process's own outputs, which a redirection writes to rather than empties. */
const DEVICES = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** Does the segment's command write nothing to its output: none, `:`, `true`, `false`, `cat /dev/null`, `echo -n`, `printf ''`? */
function writesNothing(seg: Segment): boolean {
  const w = seg.words.map((x) => (known(x) ? x.text : undefined));
  if (!w.length) return true;
  if (w.length === 1) return [":", "true", "false"].includes(w[0] ?? "");
  return w.length === 2 && ((w[0] === "cat" && w[1] === "/dev/null") || (w[0] === "echo" && w[1] === "-n") || (w[0] === "printf" && w[1] === ""));
}

/**
 * The files a segment empties (a name decided at run time among them): the targets of its emptying redirections when it writes nothing,
 * and (`tools`) those of `truncate` and `cp /dev/null` (an entry naming no file refuses them by name already, equivalents.ts).
 */
function emptied(seg: Segment, tools: boolean): Word[] {
  const first = seg.words[0];
  const name = known(first) ? program(first.text) : "";
  // /dev/null and the like hold no file's data: emptying them destroys nothing
  const out = writesNothing(seg) ? seg.redirects.filter((r) => EMPTIES.test(r.op) && !harmless(r) && !DEVICES.test(r.target.text)).map((r) => r.target) : [];
  // truncate(1): "Shrink or extend the size of each FILE"; its operands (a `-s 0` value among them, which names no file)
  if (tools && name === "truncate" && !truncateGrows(seg)) out.push(...seg.words.slice(1).filter((w) => !isOption(w)));
  // cp(1) from /dev/null: the last operand is left empty
  if (tools && name === "cp" && seg.words.some((w) => w.text === "/dev/null")) out.push(...seg.words.slice(-1));
  return out.filter((w) => w.unknown || known(w));
}

/**
 * Why a segment empties a file as `rm` deny entry `p` refuses, or undefined. `caseless`: file names
 * ignore case; `disk`: what is at each name now (nothing there, or an empty file: it destroys nothing).
 */
export function emptiesNamed(seg: Segment, p: Pattern, caseless: boolean, disk?: Disk): string | undefined {
  const command = p.words[0];
  if (!known(command) || program(command.text) !== "rm" || p.redirects.length) return undefined;
  // the paths it spells out (`rm build.log` is `rm build.log *`: the `*` names no path of its own)
  const operands = p.words.slice(1).filter((w) => !isOption(w) && w.text !== "--" && !(w.glob && w.raw === "*"));
  if (operands.some((w) => w.unknown)) return undefined;
  const recursive = p.words.slice(1).some((w) => isOption(w) && (/^-[^-]*[rR]/.test(w.text) || /^--rec/.test(w.text)));
  if (!operands.length && recursive) return undefined; // `rm -rf *` lets `rm -f x` run
  const form: Form = { caseless, backslash: false };
  const named = operands.map((w) => pathForm(w.text, form));
  // truncate and cp /dev/null by the names an entry without -r names are its equivalents (equivalents.ts); through a link they are not
  const byName = new Set(emptied(seg, recursive && operands.length > 0));
  for (const target of emptied(seg, operands.length > 0)) {
    if (!known(target) && operands.length) continue; // only what the command spells out can be a file the entry names
    const t = pathForm(target.text, form);
    // `rm -rf .` names every file (`./*` is no file's form), and with it every way of making one: not read so
    let hit =
      operands.length && byName.has(target) ? named.find((n) => globMatch(n, t) || (recursive && globMatch(`${n}/*`, t))) : operands.length ? undefined : "";
    // a link an earlier call made to a file the entry names (`ln -s important.db sl`, then `: > sl`) empties that file
    let maybe: boolean | { unknown: string } = false;
    const linked =
      hit === undefined && known(target)
        ? operands.find((w) => {
            const to = known(w) && linksTo(target, seg, disk, w.text, recursive);
            maybe = to === "maybe" || (typeof to === "object" && to);
            return !!to;
          })
        : undefined;
    hit ??= linked?.raw;
    if (hit === undefined) continue;
    const state = stateOf(target, seg, disk);
    if (state === "none" || state === "empty") continue; // makes the file, or empties an empty one
    const link = maybe ? `may be a link to ${recursive ? "a file under " : ""}\`${hit}\`` : `a link to \`${hit}\``;
    // a look that did not answer in time says which path and why
    const why = typeof maybe === "object" ? `: hey cannot tell, ${(maybe as { unknown: string }).unknown}` : "";
    const what = linked ? ` (${link}, which the entry names${why})` : hit ? ` (the entry names \`${hit}\`)` : "";
    return `it empties \`${target.raw}\`${what}${state === "data" ? "" : " if it holds anything, which hey cannot see"}`;
  }
  return undefined;
}
