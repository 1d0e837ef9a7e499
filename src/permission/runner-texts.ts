// Shell text a package runner is given to run (SPEC §8): npm's `npx -c TEXT` and `npm exec|x
// -c|--call TEXT` (npm runs it with its script-shell, sh by default), pnpm's `exec`/`dlx` in shell
// mode (`-c`, `--shell-mode`: "Uses /bin/sh on UNIX"), `yarn exec` (a script for yarn's portable
// shell) and `bun exec` (a script for Bun's shell). shell-commands.ts reads the text as it reads `sh
// -c` text, so each command in it meets the control checks, the deny entries and an allow list on
// its own, and quoting that splits a name (`r""m`) hides nothing. yarn's and Bun's shells are read
// as sh: they take the same words, and what they leave out makes them run less, not more. A shell
// the runner runs (`npx sh -c …`) is found here too (runnerProgram). Package words with a version
// (`npx rimraf@5`) name the program they run (packageProgram, for equivalents.ts). Pure.
import { program } from "./match.ts";
import { known, type Word } from "./shell-model.ts";

/** What a runner runs with the shell: its own words (the text left out), and the words whose text runs, joined as one script each. */
export type RunnerText = { own: Word[]; texts: Word[][] };

const isOption = (w: Word) => known(w) && /^-./.test(w.text) && w.text !== "--";
/** npm's options that take no value (npm's config definitions; bunx's `--bun`), so the word after one is a command or a package. */
const NPM_SWITCHES =
  /^(-y|--yes|--no|-q|--quiet|-s|--silent|--offline|--prefer-offline|--prefer-online|--ignore-existing|--legacy-peer-deps|--foreground-scripts|-ws|--workspaces|--include-workspace-root|--bun|--no-.*|--.*=.*|-d+)$/;
/** npm's `--call`: `-c TEXT`, `--call TEXT`, `--call=TEXT`, and `-c` at the end of a cluster of short options (`-yc TEXT`). */
const CALL = /^(-[A-Za-z]*c|--call)$/;
const CALL_JOINED = /^(-c|--call)=/;

/** The shell text a package runner's words hand on, why it cannot be read, or undefined for none. */
export function runnerText(words: Word[]): RunnerText | { opaque: string } | undefined {
  const first = words[0];
  if (!known(first)) return undefined;
  const name = program(first.text);
  if (name === "npx") return npmCall(words, true, -1);
  if (name === "npm") {
    const at = commandAt(words, /^(exec|x|exe)$/);
    return at < 0 ? undefined : npmCall(words, false, at);
  }
  if (name === "pnpm") {
    const at = commandAt(words, /^(exec|dlx)$/);
    if (at < 0) return undefined;
    // pnpm.io/cli/exec: exec's options come before the keyword (after it they are the command's);
    // pnpm.io/cli/dlx takes its own after `dlx` too (`pnpm dlx -c 'cowsay hi | lolcatjs'`)
    let k = at + 1;
    while (words[k] && isOption(words[k]!) && words[at]!.text === "dlx") k++;
    const shellMode = (w: Word) => known(w) && (/^-[a-z]*c[a-z]*$/.test(w.text) || w.text === "--shell-mode");
    if (![...words.slice(1, at), ...words.slice(at + 1, k)].some(shellMode)) return undefined;
    const rest = words.slice(k);
    const cmd = rest[0]?.text === "--" ? rest.slice(1) : rest;
    return { own: words.slice(0, words.length - cmd.length), texts: cmd.length ? [cmd] : [] };
  }
  if (name === "yarn" || name === "bun") {
    const at = commandAt(words, /^exec$/);
    if (at < 0) return undefined;
    const cmd = words.slice(at + 1);
    return { own: words.slice(0, at + 1), texts: cmd.length ? [cmd] : [] };
  }
  return undefined;
}

/**
 * Where a runner's command word stands: the first word that is not an option, past what could be an
 * option's value (`npm --prefix dir exec`); -1 when that is not `command`. A word after an option npm
 * reads no value for is the command, so `npm --yes install x` is not taken for exec.
 */
function commandAt(words: Word[], command: RegExp): number {
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (!known(w) || w.text === "--") return -1;
    if (isOption(w)) continue;
    if (command.test(w.text)) return i;
    const before = words[i - 1]!;
    if (i === 1 || !isOption(before) || NPM_SWITCHES.test(before.text) || /^-[a-zA-Z]{2,}$/.test(before.text)) return -1;
  }
  return -1;
}

/**
 * npm's `-c`/`--call` text. npm reads its options anywhere before `--` (npm-exec(1): "due to npm's
 * argument parsing logic"); npx only before the package's name, after which they are that program's
 * (`npx eslint -c .eslintrc.json`). A cluster holding `c` elsewhere than at its end is not read: npm
 * could take what follows the `c` as the text.
 */
function npmCall(words: Word[], npx: boolean, command: number): RunnerText | { opaque: string } | undefined {
  const texts: Word[][] = [];
  const own: Word[] = [words[0]!];
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (known(w) && w.text === "--") {
      own.push(...words.slice(i));
      break;
    }
    if (known(w) && CALL.test(w.text) && !/^-[A-Za-z]*c[A-Za-z]+$/.test(w.text)) {
      own.push(w);
      if (words[i + 1]) texts.push([words[++i]!]);
      continue;
    }
    if (known(w) && CALL_JOINED.test(w.text)) {
      own.push({ ...w, text: w.text.replace(/=.*/s, ""), raw: w.text.replace(/=.*/s, "") });
      texts.push([{ ...w, text: w.text.replace(CALL_JOINED, ""), raw: w.raw.replace(/^(-c|--call)=/, "") }]);
      continue;
    }
    if ((w.unknown || w.glob || w.anyValue) && /^['"]?-/.test(w.raw)) return { opaque: `\`${program(words[0]!.text)}\` with an option known only at run time` };
    if (known(w) && /^-[a-zA-Z]*c[a-zA-Z]+$/.test(w.text)) return { opaque: `\`${w.text}\`: npm may read what follows its \`c\` as a command to run` };
    own.push(w);
    // npx: the package's name ends npx's options (a word after an option that may take a value may be that value)
    if (npx && !isOption(w) && (i === 1 || !isOption(words[i - 1]!) || NPM_SWITCHES.test(words[i - 1]!.text))) {
      own.push(...words.slice(i + 1));
      break;
    }
  }
  if (texts.length) return { own, texts };
  // npm-exec(1): "Run without positional arguments or --call, this allows you to interactively run
  // commands" — a shell, reading its commands from stdin
  const bare = words.every((w, i) => i === 0 || i === command || (isOption(w) && !/^(-h|--help|-v|--version|--usage)$/.test(w.text)));
  return bare ? { opaque: `\`${npx ? "npx" : "npm exec"}\` without a command starts a shell reading stdin` } : undefined;
}

/** Scoped packages whose program is not named after the package (each package's `bin` field). */
const BINS: Record<string, string> = { "@changesets/cli": "changeset" };

/**
 * The program a package runner runs for a package word (`npx rimraf@5`, `pnpm dlx np@10`, `npx
 * @changesets/cli@2 publish`): the name without its version or tag, an alias's package
 * (`x@npm:rimraf@5`), a scoped package's program (BINS, else its name without the scope: npm-exec(1)
 * runs the bin named after the package). The word itself when it names no package so.
 */
export function packageProgram(word: string): string {
  const m = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:@(.*))?$/i.exec(word);
  if (!m) return word;
  const alias = /^npm:(.+)$/.exec(m[2] ?? "");
  if (alias) return packageProgram(alias[1]!);
  const name = m[1]!.toLowerCase();
  if (Object.hasOwn(BINS, name)) return BINS[name]!;
  return name.replace(/^@[^/]+\//, "");
}

/**
 * Where the program a package runner runs stands in its words (`npx --yes sh -c …`, `npm exec -- sh
 * -c …`, `pnpm exec bash -c …`, `bunx sh`), or -1: the first word past the runner's options and
 * what may be their values. shell-commands.ts reads a shell run so as it reads `sh -c` without one.
 */
export function runnerProgram(words: Word[]): number {
  const first = words[0];
  if (!known(first)) return -1;
  const name = program(first.text);
  let from = 1;
  if (name === "npm" || name === "pnpm") {
    const at = commandAt(words, name === "npm" ? /^(exec|x|exe)$/ : /^(exec|dlx)$/);
    if (at < 0) return -1;
    // pnpm.io/cli/exec: after `exec`, the command and its own options
    if (words[at]!.text === "exec" && name === "pnpm") return words[at + 1]?.text === "--" ? at + 2 : at + 1;
    from = at + 1;
  } else if (name === "bun" && words[1]?.text === "x") from = 2;
  else if (name !== "npx" && name !== "bunx" && name !== "pnpx") return -1;
  for (let i = from; i < words.length; i++) {
    const w = words[i]!;
    if (!known(w)) return -1;
    if (w.text === "--") return i + 1;
    if (isOption(w)) continue;
    const before = words[i - 1]!;
    if (i === from || !isOption(before) || NPM_SWITCHES.test(before.text) || /^-[a-zA-Z]{2,}$/.test(before.text)) return i;
  }
  return -1;
}
