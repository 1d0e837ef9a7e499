// Which package.json scripts pnpm's, yarn's and bun's own commands, and npm's that install, run
// (run-scripts.ts reads and judges them), as each was seen to run them in a project whose every
// script said its name: pnpm 10.34 and 12.24, yarn 1.22 and 4.18, bun 1.4.5, npm 11.19. A command
// that installs runs the package's lifecycle scripts, not a script of its name; a name that is no
// command of the manager's runs the script of that name. Where two versions differ, what either runs is read (a refusal too
// many beats a script run unjudged). Pure.

/**
 * What a command runs: `names`, exact script names; `lifecycle`, more that `--ignore-scripts`
 * skips (pnpm 10 and 12, yarn 1 ran none for `install`, `add`, `pack` given it, bun 1.4.5 none for
 * its installs); `itself`, whether it also runs the script of its own name (with its pre and post).
 */
export type Runs = { names: string[]; lifecycle?: string[]; itself: boolean };

const around = (n: string) => [`pre${n}`, n, `post${n}`];
/** The package's own lifecycle scripts an install runs: pnpm's `preinstall`…`postprepare` (pnpm 10's rebuild adds `prepublish`), yarn 1's `prepublish` and `prepare` after them. */
export const INSTALLING = ["install", "prepublish", "prepare"].flatMap(around);
/** pnpm's pack `prepack`, `prepare`, `postpack`; yarn's `prepack`, `postpack`. */
const PACK = ["prepack", "prepare", "postpack"];
/** pnpm's and yarn 1's publish. */
const PUBLISH = ["prepublishOnly", ...around("publish"), ...PACK];
/** yarn 4's `yarn npm publish`. */
const NPM_PUBLISH = ["prepublish", "prepack", "postpack"];
const NONE: Runs = { names: [], itself: false };
/** Only the script of the command's name: `pnpm build`, `yarn release`, `bun clean`. */
const ITSELF: Runs = { names: [], itself: true };

/**
 * pnpm's commands that install: install, add, remove, update, dedupe, prune, link, unlink, rebuild,
 * ci, deploy, patch-commit, patch-remove (pnpm 10 ran the package's lifecycle for `pnpm i`, `update`, `dedupe`, `prune`, `link
 * DIR` and `rebuild`; `pnpm add`/`remove` in a workspace run them, pnpm 12's changelog: "whenever
 * the command mutates it at all"). pnpm 12 runs a script named rebuild, rb or deploy over its own.
 */
const PNPM_INSTALLS: Record<string, boolean> = {
  ...Object.fromEntries(["install", "i", "add", "remove", "rm", "uninstall", "un", "uni", "update", "up", "upgrade", "dedupe", "prune"].map((c) => [c, false])),
  ...Object.fromEntries(["link", "ln", "unlink", "dislink", "ci", "clean-install", "ic", "install-clean"].map((c) => [c, false])),
  // pnpm 12's patch-commit and patch-remove end in an install (they ran preinstall…prepare)
  ...Object.fromEntries(["patch-commit", "patch-remove"].map((c) => [c, false])),
  ...Object.fromEntries(["rebuild", "rb", "deploy"].map((c) => [c, true])),
};
/** pnpm's commands that run no script in pnpm 10 and 12 (pnpm 10 runs `pnpm sbom`, `pnpm lane`… as scripts: not its commands there). */
const PNPM_NONE = new Set([
  "fetch",
  "import",
  "list",
  "ls",
  "ll",
  "la",
  "why",
  "outdated",
  "audit",
  "licenses",
  "dlx",
  "create",
  "bin",
  "root",
  "config",
  "c",
  "store",
  "cache",
  "init",
  "env",
  "doctor",
  "setup",
  "self-update",
  "patch",
  "approve-builds",
  "ignored-builds",
  "view",
  "info",
  "show",
  "whoami",
  "help",
]);
/** pnpm's commands that name the scripts they run. */
const PNPM_NAMED: Record<string, string[]> = {
  test: around("test"),
  t: around("test"),
  tst: around("test"),
  start: around("start"),
  stop: around("stop"),
  restart: ["stop", "restart", "start"].flatMap(around),
};

/**
 * What `pnpm OP` runs. pnpm 12 installs first when the dependencies are out of date (a fresh
 * clone, a package.json the agent changed) before whatever runs a script or a program — `pnpm
 * test`, `pnpm run build`, `pnpm exec tsc`, `pnpm dev` ran the package's preinstall…postprepare
 * first — so all of those read the install's lifecycle too.
 */
export function pnpmRuns(op: string | undefined): Runs {
  if (op === undefined || PNPM_NONE.has(op)) return NONE;
  if (op === "pack") return { names: [], lifecycle: PACK, itself: false };
  if (op === "publish") return { names: [], lifecycle: PUBLISH, itself: false };
  if (op === "version") return { names: around("version"), itself: false };
  if (op === "it" || op === "install-test") return { names: around("test"), lifecycle: INSTALLING, itself: false };
  // pnpm 12's install before a script runs is not told a `--ignore-scripts` after the script's name (that goes to the script)
  if (Object.hasOwn(PNPM_NAMED, op)) return { names: [...INSTALLING, ...PNPM_NAMED[op]!], itself: false };
  if (Object.hasOwn(PNPM_INSTALLS, op)) return { names: [], lifecycle: INSTALLING, itself: PNPM_INSTALLS[op]! };
  // exec's program and run's script are read by the caller
  return { names: INSTALLING, itself: op !== "exec" && op !== "run" && op !== "run-script" };
}

/**
 * yarn's commands that install: a bare `yarn`, install and add in yarn 1 and 4 (yarn 1 also
 * `unplug`); yarn 4's remove, up, dedupe, rebuild, link, unlink and unplug end in an install (it ran
 * the package's preinstall…postinstall for rebuild and unlink). yarn 1 runs `yarn up` and `yarn
 * rebuild`, yarn 4 `yarn upgrade`, as scripts of that name.
 */
const YARN_INSTALLS: Record<string, boolean> = {
  // yarn 1's upgrade-interactive installs the chosen upgrades (its code runs an Install)
  ...Object.fromEntries(["install", "add", "remove", "dedupe", "link", "unlink", "unplug", "upgrade-interactive"].map((c) => [c, false])),
  ...Object.fromEntries(["up", "upgrade", "rebuild"].map((c) => [c, true])),
};
/** yarn's commands that run no script in yarn 1 and 4 (yarn 4 runs `yarn check`, `yarn list`, `yarn outdated`… as scripts; yarn 1 `yarn dlx`). */
const YARN_NONE = new Set(["why", "info", "node", "exec", "bin", "config", "cache", "init", "help", "create"]);

/** What `yarn OP NEXT` runs (a bare `yarn` installs; `informs`: it was given `--version` or `--help`, and prints). */
export function yarnRuns(op: string | undefined, next: string | undefined, informs: boolean): Runs {
  if (op === undefined) return informs ? NONE : { names: [], lifecycle: INSTALLING, itself: false };
  if (YARN_NONE.has(op)) return NONE;
  if (Object.hasOwn(YARN_INSTALLS, op)) return { names: [], lifecycle: INSTALLING, itself: YARN_INSTALLS[op]! };
  if (op === "pack") return { names: [], lifecycle: PACK, itself: false };
  if (op === "publish") return { names: [], lifecycle: PUBLISH, itself: false };
  // yarn 1's version runs its scripts under --ignore-scripts too
  if (op === "version") return { names: around("version"), itself: false };
  // yarn 4's `yarn npm publish`; yarn 1 runs `yarn npm` as a script
  if (op === "npm") return { names: next === "publish" ? NPM_PUBLISH : [], itself: true };
  return op === "run" || op === "run-script" ? NONE : ITSELF;
}

/**
 * bun's own commands that run no script of their name (`bun --help`; bun runs `bun NAME` as a
 * script only when it has no command NAME: `bun test` is its test runner, `bun build` its bundler).
 * Its publish and pm are left to read as scripts. So are `bun check` and `bun fmt` (and `bun
 * format`): bun runs a package.json script of that name when there is one, and its own type
 * checker or formatter only when there is none (bun 1.4.5; https://bun.com/docs/guides/format/migrate-from-prettier).
 */
const BUN_OWN = new Set([
  "test",
  "x",
  "repl",
  "exec",
  "build",
  "init",
  "create",
  "c",
  "upgrade",
  "outdated",
  "audit",
  "prune",
  "info",
  "why",
  "unlink",
  "patch",
]);
/**
 * bun's commands that install: each runs the package's own lifecycle scripts (preinstall,
 * postinstall, prepare — bun 1.4.5 ran them for `bun i`, `bun add`, `bun remove` and `bun link
 * PKG`), not a script of the command's name. `bun link` alone only registers the package: read
 * as installing too, the safe side.
 */
const BUN_INSTALLS = new Set(["install", "i", "add", "a", "remove", "rm", "update", "link", "dedupe"]);

/** bun's install: preinstall…postprepare, of the package and of the workspace's root (bun 1.4.5 ran both from a workspace's package). */
export const BUN_INSTALLING = ["install", "prepare"].flatMap(around);

/** What `bun OP` runs; `--ignore-scripts` skips an install's scripts ("Skip lifecycle scripts for all packages, including the project's package.json"). */
export function bunRuns(op: string | undefined): Runs {
  if (op === undefined || BUN_OWN.has(op) || op === "run") return NONE;
  if (BUN_INSTALLS.has(op)) return { names: [], lifecycle: BUN_INSTALLING, itself: false };
  return ITSELF;
}

/**
 * What an npm command that installs runs, but for `--ignore-scripts` (which skipped every one):
 * `own`, scripts of the package where it runs; `member`, more of its own when a package.json is
 * above it (a workspace's package, which npm installs from the workspace's root); `rootward`,
 * those of each package.json above. npm 11.19 ran, for a bare `npm install` or `npm ci`, the
 * package's preinstall…postprepare and, in a workspace's package, the root's too, and the root's
 * predependencies…postdependencies ("after any operations that modify the node_modules
 * directory"); for `npm i PKG`, `uninstall`, `update`, `dedupe`, `prune`, `link` and `version`, the
 * dependencies scripts (a plain package's own), and in a workspace's package its own preinstall,
 * install, postinstall and prepare; `npm link` alone those in a plain package too; `npm rebuild`
 * preinstall…postinstall (prepare in a workspace's package) of the package and of the root above.
 */
export type Installs = { own: string[]; member: string[]; rootward: string[] };

const DEPENDENCIES = around("dependencies");
/** A workspace's package installed (linked) by npm or bun: its preinstall, prepare, install and postinstall. */
export const LINKED = ["preinstall", "install", "postinstall", "prepare"];
const NPM_CHANGES = new Set(["uninstall", "unlink", "remove", "rm", "r", "un", "update", "up", "upgrade", "udpate", "dedupe", "ddp", "prune", "version"]);

/** What `npm OP` runs as it installs (`bare`: OP is an install given no package), or undefined when it does not install. */
export function npmInstalls(op: string, installs: boolean, bare: boolean): Installs | undefined {
  if (installs && bare) return { own: [...INSTALLING, ...DEPENDENCIES], member: [], rootward: [...INSTALLING, ...DEPENDENCIES] };
  if (installs || NPM_CHANGES.has(op)) return { own: DEPENDENCIES, member: LINKED, rootward: DEPENDENCIES };
  if (op === "link" || op === "ln") return { own: [...LINKED, ...DEPENDENCIES], member: [], rootward: DEPENDENCIES };
  if (op === "rebuild" || op === "rb") return { own: around("install"), member: ["prepare"], rootward: around("install") };
  return undefined;
}
