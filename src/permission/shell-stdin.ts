// What a command reads on stdin that it does not write itself (SPEC §8): the input of a group, loop
// or function call around it, or of an earlier `exec`. Every fd those set is recorded beside the
// command's own redirections (Segment.given), not only fd 0, because a command can make any fd its
// stdin (`{ python3 0<&3; } 3<<EOF`, `exec 3<<<'…'; python3 <&3`, `python3 < /dev/fd/3`) or read it
// by name (`python3 /dev/fd/3`). An allow entry still matches what the user wrote on that command
// (`while read l; do echo "$l"; done < list.txt` needs no entry spelling `< list.txt` on `read` or
// `echo`), while a program that runs code from stdin, however its fd 0 was copied, and a deny entry
// named in a heredoc any fd of it holds are still seen. Pure.
import type { Redirect, Segment, Word } from "./shell-model.ts";

/** The fd a redirection sets: its number, or 0 for `<…`, 1 for `>…` (`&>` sets 1 and 2: output only). */
const fdOf = (r: Redirect): number => {
  const n = /^\d+/.exec(r.op)?.[0];
  return n !== undefined ? Number(n) : r.op.startsWith("<") ? 0 : 1;
};

/** Names of an fd as a file: `/dev/stdin`, `/dev/fd/3`, `/proc/self/fd/3`. */
const FD_FILE = /^(?:\/dev\/fd\/|\/proc\/(?:self|thread-self)\/fd\/)(\d+)$/;

/**
 * What a redirection copies into its fd: another fd (`0<&3`, `0>&3`, bash's `<&3-`, `< /dev/fd/3`),
 * "closed" (`<&-`), "unknown" (`<&$fd`), or undefined: it opens something of its own.
 */
function copyOf(r: Redirect): number | "closed" | "unknown" | undefined {
  const op = r.op.replace(/^\d+/, "");
  if (op === "<&" || op === ">&") {
    if (r.target.unknown || r.target.glob) return "unknown";
    if (r.target.text === "-") return "closed";
    const n = /^(\d+)-?$/.exec(r.target.text)?.[1];
    return n !== undefined ? Number(n) : undefined; // bash's `>&file`: stdout and stderr to a file
  }
  if (r.target.unknown || r.target.glob) return undefined;
  if (r.target.text === "/dev/stdin") return 0;
  const n = FD_FILE.exec(r.target.text)?.[1];
  return n !== undefined ? Number(n) : undefined;
}

/** Whether a redirection carries data a reader of its fd could get (not `> file`, which only writes). */
const readable = (r: Redirect): boolean => !/^\d*(>|>>|>\||&>|&>>)$/.test(r.op);

/** Stands for an fd the command line does not open, or names only at run time: what it holds is unknown. */
const unknownFd = (fd: number | string): Redirect => ({ op: "<", target: { text: `&${fd}`, raw: `<&${fd}`, unknown: true, glob: false } });

/** The pipe the commands of a `>(…)` read: what the command around it writes there, as a process substitution's. */
export const FED: Redirect = { op: "<", target: { text: "", raw: "<(…)", unknown: true, glob: false } };

/** Whether a source of stdinSources is an fd the command line does not open (unknownFd). */
export const unopened = (r: Redirect): boolean => /^\d*<$/.test(r.op) && r.target.unknown && r.target.raw.startsWith("<&");

/**
 * What a segment's fd 0 may read: the heredocs, here-strings, files and process substitutions it
 * comes from, following copies between fds. Its own redirections apply in order, after what it is
 * given from around; what it is given is taken as a whole (any of a group's, a call's or an
 * `exec`'s inputs for an fd may be the one). Empty: hey's own stdin, which holds nothing.
 */
export function stdinSources(seg: Segment): Redirect[] {
  const around = seg.given ?? [];
  const seen = new Set<number>();
  const fromAround = (fd: number): Redirect[] => {
    if (seen.has(fd)) return [];
    seen.add(fd);
    const setting = around.filter((r) => fdOf(r) === fd);
    // untouched, fd 0 is hey's stdin and 1 and 2 its output pipes, which give a reader nothing
    if (!setting.length) return fd <= 2 ? [] : [unknownFd(fd)];
    return setting.flatMap((r) => follow(r, fromAround));
  };
  const own = (fd: number, before: number): Redirect[] => {
    for (let i = before - 1; i >= 0; i--) if (fdOf(seg.redirects[i]!) === fd) return follow(seg.redirects[i]!, (from) => own(from, i));
    return fromAround(fd);
  };
  return own(0, seg.redirects.length);
}

/** The sources of the fd `r` sets: what it opens, or what the fd it copies holds (`then`). */
function follow(r: Redirect, then: (fd: number) => Redirect[]): Redirect[] {
  const copy = copyOf(r);
  if (copy === "closed") return [];
  if (copy === "unknown") return [unknownFd(r.target.raw)];
  if (copy !== undefined) return then(copy);
  return readable(r) ? [r] : [];
}

/** Where a call of a function reads its body among the segments: [from, to). */
export type Body = [number, number];

/**
 * Gives `input` (the redirections of a group, loop, call or `exec` around them, any fd) and, when
 * `piped`, the pipe to each of `segments`; into a function called there, its `body` too. Mutates
 * the segments.
 */
export function giveStdin(
  segments: Segment[],
  input: Redirect[],
  piped: boolean,
  all: Segment[],
  body: (seg: Segment) => Body | undefined,
  seen = new Set<Segment>(),
): void {
  for (const seg of segments) {
    if (seg.opaque || seen.has(seg)) continue;
    seen.add(seg);
    if (input.length) seg.given = [...(seg.given ?? []), ...input];
    if (piped) seg.piped = true; // even one that sets its own stdin: it may copy the pipe from another fd (`3<&0`)
    const range = body(seg);
    if (range) giveStdin(all.slice(...range), overridden(seg, input), piped, all, body, seen);
  }
}

/**
 * What a function call passes on to its body of `input` from around it: not the fds the call sets
 * itself (its own redirections reach the body already), unless it copies one fd to another, which
 * may read what it set aside.
 */
function overridden(call: Segment, input: Redirect[]): Redirect[] {
  if (call.redirects.some((r) => copyOf(r) !== undefined)) return input;
  const set = new Set(call.redirects.map(fdOf));
  return input.filter((r) => !set.has(fdOf(r)));
}

/** The redirections of a segment that may hand a later reader data: all but writes to a file. */
export const inputs = (redirects: Redirect[]): Redirect[] => redirects.filter((r) => readable(r) || copyOf(r) !== undefined);

/** A segment's words without the `command`/`builtin` in front (`command exec 3<&0` is an `exec`). */
const unwrapped = (seg: Segment): Word[] =>
  seg.words.filter((w, i) => !(i < seg.words.length - 1 && !w.unknown && !w.glob && (w.text === "command" || w.text === "builtin")));

const named = (w: Word | undefined, ...names: string[]): boolean => !!w && !w.unknown && !w.glob && names.includes(w.text);

/**
 * What an `exec` leaves to later commands: "bare" when it runs no command, so its redirections stay
 * for every later one (`exec 3<<EOF`, `X= exec < file`, bash's `exec -- <&3`, `exec -c -a NAME
 * <<EOF`: an assignment and exec's own options `-c`, `-l`, `-a NAME` up to `--` run nothing);
 * "unknown" when a word known only at run time may be its command or nothing (`exec $X <<EOF`).
 * dash reads no options, but a word that fails there (`exec -- <<EOF`) is taken as bash takes it.
 */
function execKind(seg: Segment): "bare" | "unknown" | undefined {
  const [first, ...rest] = unwrapped(seg);
  if (!named(first, "exec")) return undefined;
  let i = 0;
  for (; i < rest.length; i++) {
    const w = rest[i]!;
    if (w.unknown || w.glob) return "unknown";
    if (w.text === "--") {
      i++;
      break;
    }
    const flags = /^-([cla]+)(.*)$/.exec(w.text);
    if (!flags) break;
    // `-a NAME` / `-aNAME`: the name bash gives the command, not a command
    if (flags[1]!.includes("a") && !flags[2] && flags[1]!.endsWith("a")) i++;
  }
  if (rest.slice(i).some((w) => w.unknown || w.glob || w.anyValue)) return "unknown";
  return i >= rest.length ? "bare" : undefined;
}

/**
 * `eval TEXT`, `source FILE`, `. FILE`: their commands run in this shell and may `exec` a
 * redirection hey does not see among these segments (`eval "exec <<EOF…"`, a sourced file's `exec <
 * x.py`), so every later command's fd 0 holds what only the run knows.
 */
const unseenInput = (seg: Segment): boolean => named(unwrapped(seg)[0], "eval", "source", ".");

/**
 * What each fd an `exec` sets holds from then on, its copies resolved where it runs (`exec 0<&3`
 * keeps what fd 3 held then), labelled with that fd.
 */
function execFds(seg: Segment): Redirect[] {
  const fds = [...new Set(seg.redirects.map(fdOf))];
  return fds.flatMap((fd) => stdinSources({ ...seg, redirects: [...seg.redirects, { op: `<&`, target: word(String(fd)) }] }).map((r) => relabel(r, fd)));
}

const word = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });

/** A source of fd 0 as the source of `fd`: the same input under that fd's number. */
const relabel = (r: Redirect, fd: number): Redirect => ({ ...r, op: (fd === 0 ? "" : String(fd)) + r.op.replace(/^\d+/, "") });

/** Gives what every bare `exec` sets to every command after it (see execFds); what they set adds up; after an `eval`, `source` or an `exec` of unknown words, fd 0 is unknown. */
export function giveExecInput(segments: Segment[], body: (seg: Segment) => Body | undefined): void {
  const input: Redirect[] = [];
  let unseen = false;
  for (const seg of segments) {
    if (input.length) giveStdin([seg], [...input], false, segments, body);
    const exec = execKind(seg);
    if (exec) input.push(...execFds(seg));
    if (!unseen && (exec === "unknown" || unseenInput(seg))) {
      unseen = true;
      input.push(unknownFd(0));
    }
  }
}
