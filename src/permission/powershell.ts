// PowerShell, the bash tool's shell on Windows without sh (SPEC §7.1, §8): only a small subset is
// read, and everything else is "cannot verify". The subset: commands of bare words made of
// [A-Za-z0-9_./\\:=+*?-] or single-quoted text ('it''s'), separated by blanks and joined by `;`,
// `|`, `&&`, `||` or newlines. No variables, subexpressions, script blocks, double quotes,
// backticks, redirections, `@`, `,`, `#`, `%` or non-ASCII (PowerShell reads typographic quotes
// and dashes as quotes and dashes). Commands that run strings, define names or load code are
// opaque. Names are case-insensitive in PowerShell, so those are compared lowercased. Pure.
import { attempt, fail, opaque, type Parsed, type Segment, type Word } from "./shell-model.ts";

/**
 * PowerShell's built-in aliases (Windows PowerShell 5.1's `Get-Alias`, with pwsh 7's), by the
 * command they run, for the ones a deny entry is likely to name either way: `rm x` and `del x` run
 * Remove-Item, and `curl` is Invoke-WebRequest in 5.1. A deny entry naming any one of a group
 * matches all of them (powerShellSpellings), so `bash: rm *` refuses `Remove-Item x` and `del x`.
 * An alias beats a program of the same name in PowerShell, and -NoProfile keeps them as built.
 */
const ALIASES: Record<string, string> = {
  "remove-item": "rm del erase rd ri rmdir",
  "copy-item": "cp copy cpi",
  "move-item": "mv move mi",
  "rename-item": "ren rni",
  "set-content": "sc",
  "add-content": "ac",
  "clear-content": "clc",
  "clear-item": "cli",
  "get-content": "cat gc type",
  "get-childitem": "ls dir gci",
  "set-location": "cd chdir sl",
  "push-location": "pushd",
  "pop-location": "popd",
  "get-location": "pwd gl",
  "new-item": "ni",
  "set-item": "si",
  "invoke-item": "ii",
  "remove-itemproperty": "rp",
  "set-itemproperty": "sp",
  "copy-itemproperty": "cpp",
  "move-itemproperty": "mp",
  "rename-itemproperty": "rnp",
  "invoke-webrequest": "iwr curl wget",
  "invoke-restmethod": "irm",
  "invoke-expression": "iex",
  "invoke-command": "icm",
  "invoke-history": "ihy r",
  "start-process": "start saps",
  "stop-process": "kill spps",
  "get-process": "ps gps",
  "start-service": "sasv",
  "stop-service": "spsv",
  "start-job": "sajb",
  "stop-job": "spjb",
  "remove-job": "rjb",
  "remove-variable": "rv",
  "set-variable": "set sv",
  "clear-variable": "clv",
  "write-output": "echo write",
  "tee-object": "tee",
  "compare-object": "diff compare",
  "sort-object": "sort",
  "start-sleep": "sleep",
  "new-psdrive": "ndr mount",
  "remove-psdrive": "rdr",
  "remove-module": "rmo",
  "remove-wmiobject": "rwmi",
  "invoke-wmimethod": "iwmi",
  "set-wmiinstance": "swmi",
  "enter-pssession": "etsn",
  "new-pssession": "nsn",
  "remove-pssession": "rsn",
  "select-string": "sls",
  "select-object": "select",
  "where-object": "where ?",
  "foreach-object": "foreach %",
  "set-alias": "sal",
  "new-alias": "nal",
  "import-alias": "ipal",
  "import-module": "ipmo",
  "get-help": "man help",
  "set-clipboard": "scb",
  "out-printer": "lp",
};

/** Each name of a group, lowercase, to every name of its group (the cmdlet first). */
const SAME_COMMAND = new Map<string, string[]>();
for (const [cmdlet, aliases] of Object.entries(ALIASES)) {
  const names = [cmdlet, ...aliases.split(" ")];
  for (const name of names) SAME_COMMAND.set(name, names);
}

/** The cmdlet a command name (lowercase) runs when it is one of the table's names or aliases (`ri` is `remove-item`), or undefined. */
export const cmdletOf = (name: string): string | undefined => SAME_COMMAND.get(name)?.[0];

/**
 * The segment as each name of its command's alias group would be written (itself first), for deny
 * entries: PowerShell runs the same cmdlet for every one. A first word with a path or an extension
 * is no alias (`rm.exe` is a program), and a cmdlet name may carry its module (`…\Remove-Item`).
 */
export function powerShellSpellings(seg: Segment): Segment[] {
  const first = seg.words[0];
  if (!first || first.unknown || first.glob) return [seg];
  const text = first.text.toLowerCase();
  // a module-qualified name (`Microsoft.PowerShell.Management\Remove-Item`; an alias so written is read the same, erring towards refusing)
  const bare = /^[a-z0-9?%-]+$/.test(text) ? text : /^[a-z0-9.]+\\[a-z0-9?%-]+$/.test(text) ? text.slice(text.indexOf("\\") + 1) : undefined;
  const names = bare === undefined ? undefined : SAME_COMMAND.get(bare);
  if (!names) return [seg];
  const spelled = (name: string): Segment => ({ ...seg, cmdlet: true, words: [{ text: name, raw: name, unknown: false, glob: false }, ...seg.words.slice(1)] });
  return [seg, ...names.filter((n) => n !== text).map(spelled)];
}

/**
 * The words with each parameter word cut where PowerShell's tokenizer ends a parameter (tokenizer.cs
 * ScanParameter): after a `:` (`-Path:x` is the parameter `-Path:` and its value `x`) and before a
 * `.` (`-r.x` is `-r` and `.x`). A parameter word is a dash, then a letter, `_` or `?`.
 */
export function powerShellTokens(words: Word[]): Word[] {
  return words.flatMap((w, i) => {
    const m = i > 0 && !w.unknown ? /^(-[A-Za-z_?][^:.]*(?::|(?=\.)))(.+)$/s.exec(w.text) : null;
    if (!m) return [w];
    const [name, rest] = [m[1]!, m[2]!];
    return [
      { text: name, raw: name, unknown: false, glob: false },
      { text: rest, raw: rest, unknown: false, glob: w.glob && /[*?]/.test(rest) },
    ];
  });
}

const BARE = /[A-Za-z0-9_./\\:=+*?-]/;
/** First words that start something other than a command call. */
const NOT_A_CALL =
  /^(using|function|filter|workflow|class|enum|configuration|data|param|dynamicparam|begin|process|end|if|elseif|else|foreach|for|while|do|until|switch|try|catch|finally|trap)$/i;
/** Cmdlets and aliases that run a string or a file as code, define names, or start other programs. */
const RUNS_CODE = new Set(
  [
    ...["invoke-expression", "iex", "invoke-command", "icm", "start-process", "saps", "start", "start-job", "sajb", "invoke-item", "ii"],
    ...["set-alias", "sal", "new-alias", "nal", "import-alias", "ipal", "set-item", "si", "new-item", "ni", "import-module", "ipmo", "add-type"],
    ...["powershell", "pwsh", "cmd", "sh", "bash", "wsl", "foreach-object", "%", "where-object", "invoke-restmethod", "irm"],
  ].map((n) => n.toLowerCase()),
);

/** The commands of a PowerShell command line, in the subset above; anything else fails. */
export function parsePowerShell(src: string): Parsed {
  return attempt(() => read(src));
}

function read(src: string): Segment[] {
  if (/[^\x20-\x7e\t\n]/.test(src)) fail("a character outside printable ASCII (PowerShell reads some as quotes or dashes)");
  const out: Segment[] = [];
  let i = 0;
  let pending = "";
  let words: Word[] = [];
  let start = 0;
  const end = () => {
    if (!words.length) {
      if (pending) fail(`nothing after \`${pending}\``);
      return;
    }
    out.push(command(words, src.slice(start, i).trim()));
    words = [];
  };
  while (i < src.length) {
    const c = src[i]!;
    const two = src.slice(i, i + 2);
    if (c === " " || c === "\t") i++;
    else if (two === "&&" || two === "||" || c === "|" || c === ";" || c === "\n") {
      end();
      pending = c === ";" || c === "\n" ? "" : two === "&&" || two === "||" ? two : c;
      i += two === "&&" || two === "||" ? 2 : 1;
      start = i;
    } else {
      if (!words.length) start = i;
      const w = word(src, i);
      words.push(w);
      i += w.raw.length;
      pending = "";
    }
  }
  end();
  if (pending) fail(`nothing after \`${pending}\``);
  return out;
}

function word(src: string, i: number): Word {
  let j = i;
  let text = "";
  while (j < src.length && !" \t\n;|&".includes(src[j]!)) {
    const c = src[j]!;
    if (c === "'") {
      let k = j + 1;
      for (; ; k++) {
        if (k >= src.length) fail("unbalanced quote");
        if (src[k] === "'" && src[k + 1] === "'") k++;
        else if (src[k] === "'") break;
      }
      text += src.slice(j + 1, k).replaceAll("''", "'");
      j = k + 1;
    } else if (BARE.test(c)) {
      text += c;
      j++;
    } else unmodelled(c);
  }
  const raw = src.slice(i, j);
  if (!raw) unmodelled(src[i]!);
  return { text, raw, unknown: false, glob: /[*?]/.test(raw.replace(/'[^']*'/g, "")) };
}

const unmodelled = (c: string): never => fail(`PowerShell syntax ${c === "`" ? "`` ` ``" : `\`${c}\``} the checker does not model`);

function command(words: Word[], raw: string): Segment {
  const first = words[0]!;
  const name = first.text.slice(Math.max(first.text.lastIndexOf("/"), first.text.lastIndexOf("\\")) + 1).toLowerCase();
  // a quoted first word, a number or an operator is an expression; a keyword starts a statement
  if (first.raw.startsWith("'") || !/^([A-Za-z_]|\.{1,2}[\\/]|[\\/])/.test(first.raw) || NOT_A_CALL.test(first.text))
    fail(`\`${raw}\` is not a plain PowerShell command`);
  if (RUNS_CODE.has(name) || RUNS_CODE.has(name.replace(/\.exe$/, ""))) return opaque(raw, `\`${first.text}\` runs code the rules cannot see`);
  return { raw, assigns: [], words, redirects: [], nested: false };
}
