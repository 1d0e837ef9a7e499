// A package manager's own options that change what it runs (SPEC §8): npm's `--script-shell` (the
// program its scripts run with), `--node-options` (node's options, `--import=data:…` code
// included), `--userconfig`/`--globalconfig` (a config file that may set those), `--git`,
// `--editor`…, pnpm's and yarn's config files and bun's `--preload`. The same settings given as
// `npm_config_*` variables are refused by variables.ts; on the command line they are words an
// entry's `*` never matches (match.ts), as git's `--output` is, and a deny list cannot read what
// the scripts then run (run-scripts.ts). A word known only at run time that could be one counts as
// one (`npm test *` where a file is named `--script-shell=./x`). Also the options that move a manager to
// another package.json (`--prefix`, `-C`, `--cwd`, `-w`, `--filter`), as npm spells them. Pure.
import { bunRuns } from "./manager-scripts.ts";
import { NPM_OPTIONS } from "./program-tables.ts";
import { couldBegin } from "./programs.ts";
import { fixed, known, type Word } from "./shell-model.ts";

/**
 * npm's settings (npm-config(7)) that name a program it runs, code node loads or a config file that
 * can set either, or that let it run install scripts; pnpm reads the same ones from the command
 * line. `onload-script`: npm 6 and older.
 */
const NPM_RUNS = [
  "script-shell",
  "node-options",
  "userconfig",
  "globalconfig",
  "shell",
  "git",
  "editor",
  "browser",
  "viewer",
  "init-module",
  "node-gyp",
  "onload-script",
  // npm 11's allowScripts policy: these run dependencies' install scripts the project's policy does not allow
  "allow-scripts",
  "dangerously-allow-all-scripts",
];
/** npm's option names that begin another's (`--global` is not `--globalconfig`, `--all` not `--allow-scripts`): never an abbreviation. */
const NPM_WHOLE = new Set(NPM_OPTIONS.split(" | ")[1]!.split(" "));
/** pnpm's own: a file of hooks it runs at install (`.pnpmfile.cjs`), and the node it runs scripts with. */
const PNPM_RUNS = [...NPM_RUNS, "pnpmfile", "global-pnpmfile", "use-node-version"];
/** yarn 1's config file (`--use-yarnrc`, which may set `yarn-path`, another yarn to run) and yarn 4's `run --require`. */
const YARN_RUNS = ["--use-yarnrc", "--require"];
/** bun's: a file it loads before running (`--preload`, `-r`, `--require`, `--import`), its config (`-c`, which may preload) and an env file (`NODE_OPTIONS`…). */
const BUN_RUNS = ["--preload", "-r", "--require", "--import", "--config", "-c", "--env-file"];
const MANAGERS = new Set(["npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx"]);
/** Package runners, whose options end at the program they run. */
const RUNNERS = new Set(["npx", "pnpx", "bunx"]);
/** pnpm's, yarn's and bun's commands that run the program named after them with the words after it (npm's `exec` reads its own options anywhere before `--`). */
const RUNNING = new Set(["exec", "dlx", "x"]);

/** A program's name as typed or by its path, without the extension Windows finds it by (`npm.cmd`). */
const program = (t: string) =>
  t
    .slice(Math.max(t.lastIndexOf("/"), t.lastIndexOf("\\")) + 1)
    .toLowerCase()
    .replace(/\.(exe|cmd|ps1)$/, "");

/** The manager `words` run (npm, pnpm, yarn, bun, their runners), or undefined. */
function managerOf(words: Word[]): string | undefined {
  const first = words[0];
  if (!known(first)) return undefined;
  const name = program(first.text);
  return MANAGERS.has(name)
    ? name
        .replace(/^npx$/, "npm")
        .replace(/^pnpx$/, "pnpm")
        .replace(/^bunx$/, "bun")
    : undefined;
}

/**
 * Whether `text`, an option word, is one that changes what `manager` runs. npm and pnpm read options
 * as nopt does: any number of dashes (`-script-shell=x` is `--script-shell=x`), a unique beginning
 * of a name for the name (`--script-sh`, with a warning), and pnpm's `--config.NAME=…` too.
 */
function runsOther(manager: string, text: string): boolean {
  const eq = text.indexOf("=");
  const word = eq < 0 ? text : text.slice(0, eq);
  if (manager === "yarn") return YARN_RUNS.includes(word);
  // bun reads a short option's value attached too: `-r./p.js` is `--preload ./p.js` (bun 1.4.5)
  if (manager === "bun") return BUN_RUNS.includes(word) || BUN_RUNS.some((o) => /^-[^-]$/.test(o) && text.startsWith(o));
  // a single dash and one letter is a shorthand (`-g`, `-s`); longer, nopt reads it as a long name
  if (!word.startsWith("-") || /^-[^-]$/.test(word)) return false;
  const name = word.replace(/^-+/, "").replace(/^config\./, "");
  const names = manager === "pnpm" ? PNPM_RUNS : NPM_RUNS;
  if (names.includes(name)) return true;
  return name.length >= 2 && !NPM_WHOLE.has(name.replace(/^no-/, "")) && names.some((n) => n.startsWith(name));
}

/**
 * Runner options that take no value. After any other option written without `=`, the next word may
 * be its value rather than the program (`npx -p typescript tsc`, `npx --package typescript tsc`,
 * `bunx --package x y`), as npx reads it, so the options after it are still the runner's own.
 */
const SWITCHES = new Set(
  "-y --yes -n --no --no-install --ignore-existing -q --quiet -s --silent -d -dd -ddd --verbose --prefer-offline --prefer-online --offline -f --force --bun -c --shell-mode".split(
    " ",
  ),
);

/** Whether bun's command `op` is a script's name (`bun dev`), not one of its own commands (`bun test`, `bun install`). */
function namesScript(op: string): boolean {
  const runs = bunRuns(op);
  return runs.itself && !runs.names.length && !runs.lifecycle?.length;
}

/** What a word known only at run time could begin with to be one of `manager`'s options that change what it runs. */
function beginnings(manager: string): string[] {
  if (manager === "yarn") return YARN_RUNS;
  if (manager === "bun") return BUN_RUNS;
  return ["-"]; // npm's and pnpm's: any dash begins one (`-script-shell`, `---node-options`)
}

/**
 * The indexes among `words` (the program first) of a package manager's options that change what it
 * runs, with their values (`--script-shell ./x`), and of words known only at run time that could be
 * one, all before a `--` (what follows goes to the script). None for another program.
 */
export function managerOptions(words: Word[]): number[] {
  const manager = managerOf(words);
  if (!manager) return [];
  // a runner's program takes the words after its name (`npx eslint --config x`), as after pnpm's, yarn's and bun's `exec`, `dlx`, `x`
  let runner = RUNNERS.has(program(words[0]!.text));
  let command = false; // the manager's command has been read
  let script = false; // and it is bun's `run`, whose next word is the script
  let value = false; // a runner's option before this word may take it as its value
  const out: number[] = [];
  for (let k = 1; k < words.length; k++) {
    const w = words[k]!;
    if (known(w) && w.text === "--") break;
    const taken = value;
    value = runner && w.text.startsWith("-") && !w.text.includes("=") && !SWITCHES.has(w.text);
    if (!fixed(w)) {
      if (couldBegin(w, beginnings(manager))) out.push(k);
      if (runner && !w.text.startsWith("-") && !taken) break;
      continue;
    }
    if (!w.text.startsWith("-")) {
      if (runner && taken) continue;
      if (runner || (command && script)) break;
      if (!command) {
        runner = manager !== "npm" && RUNNING.has(w.text);
        // bun hands a script the words after its name (`bun run dev --preload x`, `bun dev -c x`: bun 1.4.5 gave them to the script)
        script = manager === "bun" && (w.text === "run" || namesScript(w.text));
        if (script && w.text !== "run") break;
      }
      command = true;
      continue;
    }
    if (!runsOther(manager, w.text)) continue;
    out.push(k);
    // its value in the next word, unless that is another option (`--browser --json`: browser's true)
    const next = words[k + 1];
    const attached = w.text.includes("=") || (manager === "bun" && /^-[^-]./.test(w.text));
    if (!attached && next && !(known(next) && next.text.startsWith("-"))) out.push(++k);
    value = false;
  }
  return out;
}

/** Options that name the directory whose package.json is read. */
export const DIR_OPTION = /^(--prefix|-C|--cwd|--dir)(=(.*))?$/;
/** Options that run the scripts of a workspace's packages (npm's `-w`/`--workspaces`, pnpm's `-r`/`--filter`/`-w` (its root), bun's `--filter`): their package.json is not the one read. */
export const WORKSPACE = /^(-w|--workspace|-ws|--workspaces|-r|--recursive|--filter|-F|--filter-prod|--workspace-root)(=|$)/;

/**
 * `text` as npm (and pnpm, both reading options with nopt) reads the options above: any number of
 * dashes (`-prefix=x`), npm 11's unique beginning of a name (`--prefi=src`, with a warning) and its
 * alias `--ws` for `--workspaces`; other words and other managers' as written.
 */
export function moveSpelling(manager: string, text: string): string {
  if (manager !== "npm" && manager !== "pnpm") return text;
  const m = /^-+(prefi|prefix|ws|workspace|workspaces)(=[\s\S]*)?$/.exec(text);
  if (!m || /^-(ws)?$/.test(m[0])) return text;
  return `--${m[1] === "prefi" ? "prefix" : m[1] === "ws" ? "workspaces" : m[1]}${m[2] ?? ""}`;
}
