// What sed's script does beyond printing (x5 #3): `e COMMAND` runs COMMAND with the shell, `e`
// alone and `s///e` run the text sed holds (a line of its input), and `w FILE`, `W FILE` and
// `s///w FILE` write FILE, with or without `-i`. So `bash: sed -n *`, an entry for reading line
// ranges, let `sed -n '1e CMD' f` run any command and `sed -n 'w .git/config' f` write git's config.
// The script is read as GNU sed 4.9 reads it (its `-e`/`--expression` words, else its first
// operand): addresses (`/re/I`, `\cREc`, `first~step`, `addr,+N`), `!`, braces, `;` and newlines,
// `#n`, comments, labels, the text of `a`/`i`/`c` (which may say `w`), `s` and `y` with any
// delimiter, a bracket expression in a regex holding it (`s/[/]/x/`; read both with and without,
// as older seds do not). A script file (`-f FILE`) is not read, and a script hey cannot read is
// said so (the caller refuses it): nothing is guessed. `--sandbox` turns e, w and r off. Pure.
import { decided } from "./control-files.ts";
import { program } from "./match.ts";
import type { Named } from "./patch-paths.ts";
import type { Segment, Word } from "./shell-model.ts";

/** What a script does that a reader does not: commands it runs, whether it runs text it read, the files it writes. */
export interface SedDoes {
  commands: string[];
  input: boolean;
  writes: string[];
}

/** What a sed command line does (SedDoes), or why that cannot be told; undefined for another program or a script known only at run time. */
export type SedReading = (SedDoes & { files: Word[] }) | { unknown: string };

const SED = new Set(["sed", "gsed"]);
/** GNU sed's long options (4.9); the first three take a value. */
const LONG = [
  "expression",
  "file",
  "line-length",
  "in-place",
  "quiet",
  "silent",
  "sandbox",
  "separate",
  "unbuffered",
  "null-data",
  "zero-terminated",
  "regexp-extended",
  "posix",
  "debug",
  "follow-symlinks",
  "binary",
  "help",
  "version",
];
/** Output files GNU sed writes to its own streams, not a file of that name. */
const STREAMS = new Set(["/dev/stdout", "/dev/stderr"]);

/** The long option `--name` abbreviates, as getopt takes it; undefined when none or several. */
function longName(name: string): string | undefined {
  if (LONG.includes(name)) return name;
  const found = LONG.filter((l) => l.startsWith(name));
  return found.length === 1 ? found[0] : undefined;
}

/**
 * What `sed …` in `seg` does (SedReading): its scripts read, the `w` files as words of the command
 * (relative to where it runs, as sed opens them). `files`: the `-f` script files, not read here.
 */
export function readSed(seg: Segment): SedReading | undefined {
  const first = seg.words[0];
  if (!first || !decided(first) || !SED.has(program(first.text))) return undefined;
  const scripts: string[] = [];
  const files: Word[] = [];
  const operands: Word[] = [];
  let sandbox = false;
  let inPlace = false;
  const words = seg.words.slice(1);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!decided(w)) {
      // an option or the script known only at run time: not read (an allow entry's `*` matches no such word)
      if (!operands.length && !scripts.length && !files.length) return undefined;
      operands.push(w);
      continue;
    }
    const t = w.text;
    if (t === "--") {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = longName(t.slice(2, eq < 0 ? undefined : eq));
      if (!name) return { unknown: `\`${w.raw}\` is an option of sed hey does not know` };
      const value = () => (eq >= 0 ? t.slice(eq + 1) : words[++i]);
      if (name === "sandbox") sandbox = true;
      else if (name === "in-place") inPlace = true;
      else if (name === "expression" || name === "file" || name === "line-length") {
        const v = value();
        if (v === undefined) return undefined;
        if (typeof v !== "string" && !decided(v)) return undefined;
        const text = typeof v === "string" ? v : v.text;
        if (name === "expression") scripts.push(text);
        if (name === "file") files.push(typeof v === "string" ? { ...w, text, raw: text } : v);
      }
      continue;
    }
    if (t.startsWith("-") && t.length > 1) {
      // a cluster: `-ne SCRIPT`, `-nEe'1p'`, `-i.bak`, `-f FILE`
      for (let k = 1; k < t.length; k++) {
        const c = t[k]!;
        if (c === "i") {
          inPlace = true;
          break; // its suffix is the rest of the word
        }
        if (c === "e" || c === "f" || c === "l") {
          const v = k + 1 < t.length ? { ...w, text: t.slice(k + 1), raw: t.slice(k + 1) } : words[++i];
          if (!v || !decided(v)) return undefined;
          if (c === "e") scripts.push(v.text);
          if (c === "f") files.push(v);
          break;
        }
        if (!"nrEsuzb".includes(c)) return { unknown: `\`${w.raw}\` is an option of sed hey does not know` };
      }
      continue;
    }
    operands.push(w);
  }
  if (sandbox) return { commands: [], input: false, writes: [], files: [] };
  const given = scripts.length || files.length;
  if (!given && (!operands[0] || !decided(operands[0]))) return undefined;
  const texts = given ? (scripts.length ? [scripts.join("\n")] : []) : [operands[0]!.text];
  const does = texts.map(readScript);
  const failed = does.find((d) => "error" in d);
  if (failed && "error" in failed) return { unknown: `hey cannot read sed's script (${failed.error}), whose \`e\` could run a command and \`w\` write a file` };
  const read = does as SedDoes[];
  // BSD sed (macOS) takes the word after a bare `-i` as its suffix, so the script is the next operand: read that too where it parses
  const bsd = !given && inPlace && operands[1] && decided(operands[1]) ? readScript(operands[1].text) : undefined;
  if (bsd && !("error" in bsd)) read.push(bsd);
  return {
    commands: read.flatMap((d) => d.commands),
    input: read.some((d) => d.input),
    writes: read.flatMap((d) => d.writes),
    files,
  };
}

/** Why a sed command runs what no rule can see: a script file hey does not read, `e` alone or `s///e`, a script hey cannot read; undefined when none. */
export function sedUnseen(sed: SedReading): string | undefined {
  if ("unknown" in sed) return sed.unknown;
  if (sed.files.length)
    return `sed reads its script from \`${sed.files[0]!.raw}\`, which hey does not read (its \`e\` could run a command, its \`w\` write a file): give the script with -e, or add --sandbox`;
  return sed.input ? "sed's `e` (alone, or the `e` of `s///e`) runs a line it reads as a command, which no rule can see" : undefined;
}

/** The files the sed command in `seg` writes with `w`, `W`, `s///w` (not its `-i` operands), as words judged where it runs. */
export function sedWrites(seg: Segment): { names: Named[] } | undefined {
  const sed = readSed(seg);
  if (!sed || "unknown" in sed || !sed.writes.length) return undefined;
  return { names: sed.writes.map((text) => ({ word: { text, raw: text, unknown: false, glob: false }, note: "the file sed's `w` writes" })) };
}

/** A script as GNU sed reads it, with bracket expressions in regexes and without (older seds): what either reading does; an error only where the first fails. */
export function readScript(src: string): SedDoes | { error: string } {
  const current = scan(src, true);
  if ("error" in current) return current;
  const old = scan(src, false);
  if ("error" in old) return current;
  return {
    commands: [...new Set([...current.commands, ...old.commands])],
    input: current.input || old.input,
    writes: [...new Set([...current.writes, ...old.writes])],
  };
}

function scan(src: string, brackets: boolean): SedDoes | { error: string } {
  const out: SedDoes = { commands: [], input: false, writes: [] };
  const n = src.length;
  let i = /^#n(\n|$)/.test(src) ? 2 : 0;
  let depth = 0;
  const error = (what: string) => ({ error: `${what} at character ${i + 1}` });
  const spaces = () => {
    while (i < n && (src[i] === " " || src[i] === "\t")) i++;
  };
  /** to the end of the line: a file name, `e`'s command */
  const line = () => {
    const start = i;
    while (i < n && src[i] !== "\n") i++;
    return src.slice(start, i);
  };
  const digits = () => {
    const start = i;
    while (i < n && /[0-9]/.test(src[i]!)) i++;
    return i > start;
  };
  /** past the closing `d` of a regex (`regex`) or replacement from `i`; false when there is none on the line */
  const delimited = (d: string, regex: boolean): boolean => {
    while (i < n) {
      const c = src[i]!;
      if (c === "\\") i += 2;
      else if (c === "\n") return false;
      else if (c === d) {
        i++;
        return true;
      } else if (regex && brackets && c === "[") {
        let j = i + 1;
        if (src[j] === "^") j++;
        if (src[j] === "]") j++;
        for (; j < n && src[j] !== "]"; j++) {
          if (src[j] === "\n") return false;
          const cls = src[j] === "[" && /[:.=]/.test(src[j + 1] ?? "") ? src.indexOf(`${src[j + 1]}]`, j + 2) : -1;
          if (cls > 0) j = cls + 1;
        }
        if (j >= n) return false;
        i = j + 1;
      } else i++;
    }
    return false;
  };
  const address = (): boolean | undefined => {
    const c = src[i];
    if (c !== undefined && /[0-9]/.test(c)) {
      digits();
      if (src[i] === "~") {
        i++;
        digits();
      }
      return true;
    }
    if (c === "$") {
      i++;
      return true;
    }
    if (c !== "/" && c !== "\\") return false;
    if (c === "\\") i++;
    const d = src[i++];
    if (d === undefined || d === "\n" || d === "\\" || !delimited(d, true)) return undefined;
    while (src[i] === "I" || src[i] === "M") i++;
    return true;
  };
  /** a command's end: blanks, then `;`, a line's end, `}` or a comment */
  const ended = () => {
    spaces();
    return i >= n || /[;\n}#]/.test(src[i]!);
  };
  while (true) {
    while (i < n && /[ \t\n;]/.test(src[i]!)) i++;
    if (i >= n) break;
    if (src[i] === "#") {
      line();
      continue;
    }
    const addressed = address();
    if (addressed === undefined) return error("an unterminated address regex");
    if (addressed) {
      spaces();
      if (src[i] === ",") {
        i++;
        spaces();
        if (src[i] === "+" || src[i] === "~") {
          i++;
          if (!digits()) return error("a bad address");
        } else if (address() !== true) return error("a bad address");
      }
    }
    spaces();
    while (src[i] === "!") {
      i++;
      spaces();
    }
    const cmd = src[i++];
    if (cmd === undefined) return error("a missing command");
    if (cmd === "{") {
      depth++;
      continue;
    }
    if (cmd === "}") {
      if (--depth < 0) return error("an unexpected `}`");
    } else if ("=dDgGhHnNpPxzF".includes(cmd)) {
      // no argument
    } else if ("lLqQ".includes(cmd)) {
      spaces();
      digits();
    } else if (":btTv".includes(cmd)) {
      spaces();
      while (i < n && !/[;\n]/.test(src[i]!)) i++;
      continue;
    } else if ("aic".includes(cmd)) {
      // text to the end of the line, a backslash before a line break going on to the next: none of it is a command
      spaces();
      if (src[i] === "\\") i++;
      if (src[i] === "\n") i++;
      while (i < n && src[i] !== "\n") i += src[i] === "\\" ? 2 : 1;
      continue;
    } else if (cmd === "r" || cmd === "R") {
      line();
      continue;
    } else if (cmd === "w" || cmd === "W") {
      spaces();
      const file = line();
      if (!file) return error("a missing file name");
      if (!STREAMS.has(file)) out.writes.push(file);
      continue;
    } else if (cmd === "e") {
      spaces();
      const command = line();
      if (command.trim()) out.commands.push(command);
      else out.input = true;
      continue;
    } else if (cmd === "s" || cmd === "y") {
      const d = src[i++];
      if (d === undefined || d === "\n" || d === "\\") return error(`a bad delimiter after \`${cmd}\``);
      if (!delimited(d, cmd === "s") || !delimited(d, false)) return error(`an unterminated \`${cmd}\``);
      let file: string | undefined;
      while (cmd === "s" && i < n && /[gpiImMe0-9w]/.test(src[i]!)) {
        const flag = src[i++];
        if (flag === "e") out.input = true;
        if (flag === "w") {
          spaces();
          file = line();
          if (!file) return error("a missing file name");
          break;
        }
      }
      if (file !== undefined) {
        if (!STREAMS.has(file)) out.writes.push(file);
        continue;
      }
    } else return error(`an unknown command \`${cmd}\``);
    if (!ended()) return error(`extra characters after \`${cmd}\``);
  }
  if (depth > 0) return error("an unmatched `{`");
  return out;
}
