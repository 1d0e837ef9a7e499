// What a command reads on stdin that it does not write itself (SPEC §8): the input of a group, loop
// or function call around it, or of an earlier `exec < …`. It is recorded beside the command's own
// redirections (Segment.given) so that an allow entry still matches what the user wrote on that
// command (`while read l; do echo "$l"; done < list.txt` needs no entry spelling `< list.txt` on
// `read` or `echo`), while a program that runs code from stdin (`{ python3; } <<EOF`, `f <<<'…'`)
// and a deny entry named in a heredoc given that way are still seen. Pure.
import type { Redirect, Segment } from "./shell-model.ts";

/** A redirection onto fd 0: `<`, `0<`, `<<`, `<<<`, `<>`, `<&3` (`3<<EOF` feeds fd 3, not stdin). */
export const onStdin = (r: Redirect): boolean => /^0?</.test(r.op);

/** A command's redirections with the stdin given it from around (Segment.given): what it reads, not what an allow entry matches. */
export const withGiven = (seg: Segment): Redirect[] => (seg.given ? [...seg.redirects, ...seg.given] : seg.redirects);

/** Where a call of a function reads its body among the segments: [from, to). */
export type Body = [number, number];

/**
 * Gives `input` (fd-0 redirections) and, when `piped`, the pipe to each of `segments` that does not
 * set its own stdin; into a function called there, its `body` too. Mutates the segments.
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
    if (seg.opaque || seen.has(seg) || seg.redirects.some(onStdin)) continue;
    seen.add(seg);
    if (input.length) seg.given = [...(seg.given ?? []), ...input];
    if (piped) seg.piped = true;
    const range = body(seg);
    if (range) giveStdin(all.slice(...range), input, piped, all, body, seen);
  }
}

/** `exec < file`, `exec <<<'…'`: an `exec` with no command, whose fd-0 input every later command reads; else undefined. */
function execInput(seg: Segment): Redirect[] | undefined {
  const [first, ...rest] = seg.words;
  if (!first || first.unknown || first.glob || first.text !== "exec" || rest.length || seg.assigns.length) return undefined;
  const input = seg.redirects.filter(onStdin);
  return input.length ? input : undefined;
}

/** Gives what each `exec < …` reads to every command after it (see execInput). */
export function giveExecInput(segments: Segment[], body: (seg: Segment) => Body | undefined): void {
  let input: Redirect[] | undefined;
  for (const seg of segments) {
    if (input) giveStdin([seg], input, false, segments, body);
    input = execInput(seg) ?? input;
  }
}
