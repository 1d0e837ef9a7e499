// What `echo`, `printf` and `cat` write, exactly, when the command line decides it (SPEC §8, deny
// lists): the text of a script the same command writes and then runs is judged by reading it as
// the shell will (written-scripts.ts, shell-texts.ts), so it has to be the text the file will hold.
// Where dash and bash would write different text (echo's backslashes and `-e`), where printf's
// format asks for what hey does not evaluate (`%5s`, `\x41`), or where a word, a heredoc body or a
// here-string expands at run time, the answer is why it cannot be known. Pure.
import { known, type Redirect, type Word } from "./shell-model.ts";

/** The text written, or why it is known only when the command runs. */
export type Written = { text: string } | { why: string };

/** printf's format escapes that dash and bash both read alike (POSIX printf(1)). */
const ESCAPES: Record<string, string> = { "\\": "\\", a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/** What `echo ARGS` writes: both shells agree only without backslashes and without `-e`/`-E`. */
export function echoText(args: Word[]): Written {
  if (!args.every(known)) return { why: "writes with `echo` of a value known only at run time" };
  const newline = args[0]?.text !== "-n";
  const words = (newline ? args : args.slice(1)).map((w) => w.text);
  if (words.some((t) => t.includes("\\"))) return { why: "writes with `echo` of a backslash, which dash and bash write differently" };
  if (/^-[neE]+$/.test(words[0] ?? "")) return { why: `writes with \`echo ${words[0]}\`, which dash and bash read differently` };
  return { text: words.join(" ") + (newline ? "\n" : "") };
}

/**
 * What `printf FORMAT ARGS` writes: `%s`, `%c`, `%d`/`%i` of a plain integer, `%%`, the escapes of
 * ESCAPES and `\NNN` (octal), the format reused while arguments remain. Anything else is unknown.
 */
export function printfText(words: Word[]): Written {
  const args = words[0]?.text === "--" ? words.slice(1) : words;
  if (!args.length || !args.every(known)) return { why: "writes with `printf` of a value known only at run time" };
  const [format, ...values] = args.map((w) => w.text);
  let out = "";
  let next = 0;
  do {
    const start = next;
    for (let i = 0; i < format!.length; i++) {
      const c = format![i]!;
      if (c === "\\") {
        const octal = /^[0-7]{1,3}/.exec(format!.slice(i + 1))?.[0];
        const e = ESCAPES[format![i + 1] ?? ""];
        if (octal) out += String.fromCharCode(Number.parseInt(octal, 8));
        else if (e !== undefined) out += e;
        else return { why: `writes with \`printf\`'s \`\\${format![i + 1] ?? ""}\`, which hey does not evaluate` };
        i += octal ? octal.length : 1;
      } else if (c === "%") {
        const conv = format![++i];
        if (conv === "%") out += "%";
        else if (conv === "s" || conv === "c") out += conv === "s" ? (values[next++] ?? "") : (values[next++] ?? "").slice(0, 1);
        else if ((conv === "d" || conv === "i") && /^-?(0|[1-9][0-9]*)$/.test(values[next] ?? "0")) out += values[next++] ?? "0";
        else return { why: `writes with \`printf\`'s \`%${conv ?? ""}\`…, which hey does not evaluate` };
      } else out += c;
    }
    if (next === start) break; // a format that takes no argument is written once
  } while (next < values.length);
  return { text: out };
}

/**
 * What a program reading stdin gets from these redirections, the sources of its fd 0
 * (shell-stdin.ts stdinSources): one heredoc (its body as written when the delimiter is quoted, or
 * holds nothing that expands) or one here-string. Undefined: none.
 */
export function stdinText(redirects: Redirect[]): Written | undefined {
  const inputs = redirects.filter((r) => r.body !== undefined || /^\d*(<<<|<|<>)$/.test(r.op));
  if (!inputs.length) return undefined;
  if (inputs.length > 1) return { why: "writes from more than one input" };
  const r = inputs[0]!;
  if (r.body !== undefined) {
    const expands = !/['"\\]/.test(r.target.raw);
    const body = r.op.endsWith("<<-") ? r.body.replace(/^\t+/gm, "") : r.body;
    return expands && /[$`\\]/.test(body) ? { why: "writes from a heredoc that expands at run time" } : { text: body };
  }
  if (r.op.endsWith("<<<")) return known(r.target) ? { text: `${r.target.text}\n` } : { why: "writes from a here-string known only at run time" };
  return { why: `writes from \`${r.target.raw}\`, which only the run reads` };
}
