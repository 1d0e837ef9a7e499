// The package.json scripts a command runs (SPEC §8): `npm run release`, `yarn release`, `pnpm run
// deploy`, `bun run publish:all`, `npm test`, `npm it`, `npm pack`, `npm version patch`, `node --run
// release` run what the scripts say, which a script's name does not
// tell; the deny checks read the scripts as the command is checked and judge what they run
// (rules.ts). With them, npm's `preNAME` and `postNAME` (npm runs them around NAME); pnpm's, yarn's
// and bun's own commands and npm's installs run the scripts src/permission/manager-scripts.ts names,
// their installs with the lifecycle scripts of each package.json above (a workspace's root) and of
// the workspace's packages. The directory is the one the command runs in (after a `cd`), or the one
// `--prefix`, `-C`, `--cwd` or `--dir` names, or the nearest above it with a package.json (the
// managers look up for one); a script runs in its package.json's directory, so what it runs
// (another script) is judged from there. The same through a package runner (`npx npm test`, `npm
// exec -- npm test`, `corepack pnpm dev`). A script's name decided at run time (`npm run "$s"`)
// could be any of them. npm's `--ignore-scripts` runs no pre, post or lifecycle script, only what
// the command names (npm's config docs: "commands explicitly intended to run a particular script …
// will still run"). `-w`, `--workspaces`, `pnpm -r` and `--filter` read the scripts they run from
// every package of the workspace (fs/workspace-packages.ts). Not read, so "cannot verify": the
// scripts yarn's `workspace` and `workspaces` commands run and deno.json's tasks (`deno task
// NAME`). A script the agent changed before the check is read as it then is; one another part of
// the command names, redirects to or may check out (on-disk.ts rewritten, git's commands that
// rewrite the work tree) cannot be known, so is refused, as is one whose `.npmrc` (or another
// manager's config file) the command may change, or that an option makes another program run
// (`--script-shell=./x`, `--node-options=…`: manager-options.ts). Pure: the caller's `packageScripts` reads
// the file.
import { decided, directories, expand, onWindows, POSIX, WINDOWS } from "./control-files.ts";
import { runnerTails } from "./equivalents.ts";
import { readGit } from "./git.ts";
import { DIR_OPTION, managerOptions, moveSpelling, WORKSPACE } from "./manager-options.ts";
import { BUN_INSTALLING, bunRuns, INSTALLING, LINKED, npmInstalls, pnpmRuns, type Runs, yarnRuns } from "./manager-scripts.ts";
import { program } from "./match.ts";
import { type Disk, rewritten } from "./on-disk.ts";
import type { Segment, Word } from "./shell-model.ts";

/** npm's run-script and its aliases (npm's `run-script --help`: "aliases: run, rum, urn"); pnpm's, yarn's and bun's `run`. */
const RUN = new Set(["run", "run-script", "rum", "urn"]);
/** npm's commands that run scripts (npm-test(1) "This runs a predefined command specified in the "test" property"…), each wrapped in its pre and post. */
const LIFECYCLE: Record<string, string[]> = {
  test: ["test"],
  t: ["test"],
  tst: ["test"],
  start: ["start"],
  stop: ["stop"],
  restart: ["restart", "stop", "start"],
  // npm-install-test(1) "runs an npm install followed immediately by an npm test"; install-ci-test the same after npm ci
  ...Object.fromEntries(
    ["it", "install-test", "cit", "install-ci-test", "clean-install-test", "sit"].map((c) => [c, ["install", "prepublish", "prepare", "test"]]),
  ),
  // npm's scripts(7) "Life Cycle Operation Order": pack runs prepack, prepare, postpack; publish prepublishOnly, those, publish, postpublish; version preversion, version, postversion
  pack: ["pack", "prepare"],
  publish: ["prepublishOnly", "pack", "prepare", "publish"],
  version: ["version"],
};
/** npm's install and clean-install, by their names and aliases, which run the package's own lifecycle scripts when given no package. */
const INSTALL = new Set([
  "install",
  "i",
  "in",
  "ins",
  "inst",
  "insta",
  "instal",
  "isnt",
  "isnta",
  "isntal",
  "isntall",
  "add",
  "ci",
  "clean-install",
  "ic",
  "install-clean",
  "isntall-clean",
]);
/** npm's, pnpm's and bun's commands that, given `-g` and packages, install or remove them in the global prefix. */
const GLOBAL_INSTALLS = new Set(["install", "i", "add", "a", "remove", "rm", "r", "uninstall", "un", "uni", "update", "up", "upgrade"]);
/** A package spec that is a directory or file here (`npm i -g .` installs this package, running its scripts). */
const LOCAL = /^(\.\.?(\/|$)|\/|~\/|file:|link:)/;
/** Package managers' commands that run no script of the packages (`exec` and `dlx` run the program they name, read as such). */
const RUNS_NONE = new Set(["list", "ls", "why", "outdated", "audit", "info", "view", "exec", "dlx", "x"]);
/** npm's commands that name the script they run, so run it also under `--ignore-scripts` (without its pre and post). */
const NAMES_ITS_SCRIPT = new Set(["test", "t", "tst", "start", "stop", "restart"]);
/** The managers' config files beside package.json that say what runs the scripts (npm's `script-shell` and `node-options` in `.npmrc`, yarn's `yarnPath`, pnpm's hooks, bun's `preload`). */
const CONFIGS = [".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", "pnpm-workspace.yaml", "bunfig.toml"];
/** git's commands that may put another package.json in the work tree (git-checkout(1), git-pull(1)…). */
const CHECKS_OUT = new Set([
  "checkout",
  "switch",
  "pull",
  "merge",
  "rebase",
  "reset",
  "restore",
  "stash",
  "cherry-pick",
  "revert",
  "am",
  "apply",
  "worktree",
  "read-tree",
  "checkout-index",
]);

/**
 * A script `name` whose command line is `text`, run in the absolute directory `dir` (its
 * package.json's), of `file` when that is not the package.json where the command runs (a
 * workspace's root, a package.json above a directory that has none).
 */
type Script = { name: string; text: string; dir: string; file?: string };

/** A word of the command after its program and options: `known`, decided now; `value`, it follows an option that may take it as its value. */
type Op = { text: string; known: boolean; value: boolean };
/** Options known to take no value: the word after them is the command (`pnpm --silent install`). */
const SAYS_NO_VALUE = /^(-s|--silent|--verbose|--json|--offline|--prefer-offline|--frozen-lockfile|-P|--dev|-D|-g|--global|--no-.*)$/;

/** `--version` or `--help`: a bare `yarn --version` prints, where a bare `yarn` installs. */
const informs = (w: Word) => decided(w) && /^(-v|--version|-h|--help)$/.test(w.text);

const AWAY = "it runs the scripts of a package.json in a directory known only at run time";

/**
 * The scripts `seg` runs from package.json, each with its text, or none (not a package manager
 * running a script, or none there); `unknown` when another part of the command may change that
 * package.json first (`cp x package.json && npm test`), so what runs is not what hey can read now.
 */
export function scriptsRun(seg: Segment, disk: Disk | undefined): Script[] | { unknown: string } {
  const out: Script[] = [];
  // `npx npm test`, `npm exec -- npm test`, `corepack pnpm dev`: the runner's program runs its scripts
  for (const s of [seg, ...runnerTails(seg)]) {
    const run = scriptsOf(s, disk);
    if ("unknown" in run) return run;
    out.push(...run);
  }
  return out;
}

function scriptsOf(seg: Segment, disk: Disk | undefined): Script[] | { unknown: string } {
  const control = disk?.control;
  const first = seg.words[0];
  if (!control?.packageScripts || !first || !decided(first)) return [];
  const manager = program(first.text).replace(/^(npm|pnpm|yarn)@.*$/, "$1"); // `npx npm@10 test`
  // node(1) `--run <script>`: "Run a command from a package.json's "scripts" object" (Node 22); no pre/post
  if (manager === "node") {
    const at = seg.words.findIndex((w) => decided(w) && /^--run(=|$)/.test(w.text));
    if (at < 0) return [];
    const named = seg.words[at]!.text.includes("=") ? seg.words[at] : seg.words[at + 1];
    const name = named && decided(named) ? named.text.replace(/^--run=/, "") : undefined;
    return readScripts(disk!, undefined, name === undefined ? undefined : [name], seg, { member: [], rootward: [], packages: [] });
  }
  if (manager === "deno") {
    const [sub, task] = seg.words.slice(1).filter((w) => !decided(w) || !w.text.startsWith("-"));
    if (sub && decided(sub) && sub.text === "task" && task) return { unknown: "it runs a task of deno.json, which hey does not read" };
    return [];
  }
  if (!["npm", "pnpm", "yarn", "bun"].includes(manager)) return [];
  let under: string | undefined;
  let workspace = false;
  let ignore = false;
  let away = false;
  let unsaid = false;
  let skips = false;
  let globally = false;
  const ops: Op[] = [];
  let valued = false; // the word before was an option that may take the next word as its value
  for (let i = 1; i < seg.words.length; i++) {
    const word = seg.words[i]!;
    const w = decided(word) ? { ...word, text: moveSpelling(manager, word.text) } : word;
    const value = valued;
    valued = false;
    if (!decided(w)) ops.push({ text: "", known: false, value });
    else if (w.text === "--")
      break; // what follows goes to the script
    else if (DIR_OPTION.test(w.text)) {
      const m = DIR_OPTION.exec(w.text)!;
      const value = m[2] ? { text: m[3]!, known: true } : seg.words[i + 1] && { text: seg.words[++i]!.text, known: decided(seg.words[i]!) };
      if (value?.known) under = value.text;
      else away = true; // a directory known only at run time
    } else if (/^-C[^=]/.test(w.text))
      under = w.text.slice(2); // pnpm's and npm's `-Cpackages/web`
    else if (/^(--ignore-scripts=false|--no-ignore-scripts)$/.test(w.text)) {
      ignore = false; // the last word said wins (npm, pnpm: `--ignore-scripts --no-ignore-scripts` ran them)
      skips = false;
    } else if (WORKSPACE.test(w.text)) {
      workspace = true;
      // the package named (`npm -w web`, `pnpm --filter web`) is not a script's name
      if (/^(--workspace|--filter|-F|--filter-prod)$/.test(w.text) || (manager === "npm" && w.text === "-w")) i++;
    } else if (manager === "npm" && /^--ignore-scripts(=true)?$/.test(w.text)) {
      // npm's option parser (nopt) takes a `true` or `false` after a bare boolean flag as its value
      // (`npm ci --ignore-scripts false` runs them); a word known only at run time may be `false`
      const next = w.text.includes("=") ? undefined : seg.words[i + 1];
      if (next && decided(next) && /^(true|false)$/.test(next.text)) ignore = seg.words[++i]!.text === "true";
      else ignore = !next || decided(next);
      unsaid ||= !!next && !decided(next); // `false` at run time: what npm then runs is not told by the words, so any script may run
    } else if (manager !== "npm" && /^--ignore-scripts(=true)?$/.test(w.text)) {
      // pnpm's and yarn's: a `false` (or a word known only at run time) after it may turn it off
      const next = w.text.includes("=") ? undefined : seg.words[i + 1];
      skips = !next || (decided(next) && next.text !== "false");
      if (next && decided(next) && /^(true|false)$/.test(next.text)) i++;
    } else if (/^(-g|--global(=true)?|--location=global)$/.test(w.text)) globally = true;
    else if (!w.text.startsWith("-")) ops.push({ text: w.text, known: true, value });
    else valued = !w.text.includes("=") && !SAYS_NO_VALUE.test(w.text);
  }
  // `npm i -g typescript`, `pnpm add -g tsx`, `bun add -g cowsay`: registry packages into the global prefix, which runs no script of the project here
  if (
    globally &&
    manager !== "yarn" &&
    ops.length > 1 &&
    ops[0]!.known &&
    GLOBAL_INSTALLS.has(ops[0]!.text) &&
    ops.slice(1).every((o) => o.known && !LOCAL.test(o.text))
  )
    return [];
  // the script's name: after `run` (an option's value may stand before it), npm's lifecycle commands, or yarn's, pnpm's and bun's `NAME`
  const names = new Set<string>();
  let any = unsaid;
  ops.forEach((op, j) => {
    if (op.known && RUN.has(op.text) && ops[j + 1]) ops[j + 1]!.known ? names.add(ops[j + 1]!.text) : (any = true);
  });
  // `yarn --network-timeout 1000 install`, `pnpm --reporter silent test`: a word after an option may be
  // its value or the command (hey does not know every option's type), so what either command runs is read
  const exact = new Set<string>();
  const member = new Set<string>();
  const rootward = new Set<string>();
  let workspaces = false;
  for (let at = 0; at === 0 || ops[at - 1]?.value; at++) {
    const read = commandRuns(manager, ops.slice(at), ignore, skips, seg.words.some(informs));
    for (const n of read.names) names.add(n);
    for (const n of read.exact) exact.add(n);
    for (const n of read.member) member.add(n);
    for (const n of read.rootward) rootward.add(n);
    any ||= read.any;
    workspaces ||= (workspace || read.workspace) && (manager === "pnpm" || !read.runsNone);
  }
  if (!names.size && !exact.size && !any) return [];
  if (away) return { unknown: AWAY };
  // `npm test --script-shell=./x`, `--node-options=--import=…`: the scripts hey reads are not what then runs
  const option = managerOptions(seg.words).find((k) => decided(seg.words[k]!));
  if (option !== undefined)
    return {
      unknown: `\`${seg.words[option]!.raw.replace(/=.*/s, "=…")}\` changes what runs its scripts (the program they run with, node's options or a config file that sets them)`,
    };
  // yarn's `workspace NAME SCRIPT` and `workspaces foreach`: which script runs is not read
  if (workspaces && manager === "yarn") return { unknown: "it runs the scripts of a workspace's packages, whose package.json hey does not read" };
  const wanted = [...[...names].flatMap((n) => (ignore ? [n] : [`pre${n}`, n, `post${n}`])), ...exact];
  // any script: the command may be any of their installs, which run the root's lifecycle (npm's dependencies scripts too)
  if (any) for (const n of [...INSTALLING, ...BUN_INSTALLING, "predependencies", "dependencies", "postdependencies"]) rootward.add(n);
  // an install runs the lifecycle scripts of the workspace's packages too (npm 11 and bun 1.4.5 ran each one's preinstall…prepare)
  const installs = !rootward.size ? [] : manager === "npm" || manager === "bun" ? LINKED : INSTALLING;
  // `-w NAME`, `--workspaces`, `-r`, `--filter`: the scripts it runs, of every package of the workspace (which one a name selects is not looked for)
  // (pnpm 12's `pnpm -r exec` installs the workspace first: its packages' lifecycle scripts)
  const packages = !workspaces ? installs : any ? undefined : [...new Set([...installs, ...wanted])];
  return readScripts(disk!, under, any ? undefined : wanted, seg, { member: [...member], rootward: [...rootward], packages });
}

/**
 * What the command `ops` (its first word the command) runs: the scripts `names` (with their pre
 * and post), the `exact` ones, `any` script, the `member` and `rootward` ones an install runs (see
 * readScripts), whether it is yarn's `workspace(s)` and whether it is one of the commands that run
 * no script of the packages.
 */
function commandRuns(manager: string, ops: Op[], ignore: boolean, skips: boolean, informing: boolean) {
  const names = new Set<string>();
  let any = false;
  const lifecycle = ops[0]?.known && manager === "npm" && Object.hasOwn(LIFECYCLE, ops[0].text) ? LIFECYCLE[ops[0].text]! : [];
  // npm's `--ignore-scripts`: of its lifecycle, only the script a command names (`npm test`; `npm it` installs, then tests)
  for (const n of ignore ? lifecycle.filter((n) => n === "test" || NAMES_ITS_SCRIPT.has(ops[0]!.text)) : lifecycle) names.add(n);
  // npm's installs (manager-scripts.ts): the package's lifecycle scripts, in a workspace's package the root's too; none under --ignore-scripts
  const [op, next] = ops.map((o) => (o.known ? o.text : undefined));
  const tests = op !== undefined && lifecycle.includes("install"); // `npm it`: an install, then test
  const npm = manager === "npm" && !ignore && op !== undefined ? npmInstalls(op, INSTALL.has(op) || tests, ops.length === 1 || tests) : undefined;
  // pnpm's, yarn's and bun's own commands: the lifecycle scripts they run, or the script of their name (manager-scripts.ts)
  const runs: Runs | undefined =
    manager === "pnpm" ? pnpmRuns(op) : manager === "yarn" ? yarnRuns(op, next, informing) : manager === "bun" ? bunRuns(op) : undefined;
  const exact = new Set([...(runs?.names ?? []), ...(skips ? [] : (runs?.lifecycle ?? [])), ...(npm?.own ?? [])]);
  if (ops[0] && runs && !(ops[0].known && RUN.has(ops[0].text))) ops[0].known ? runs.itself && names.add(ops[0].text) : (any = true);
  if (manager === "npm" && ops[0] && !ops[0].known) any = true; // `npm "$cmd"`: test, install, run-script… any of them
  // pnpm 10 and 12, yarn 4 and bun installing in a workspace's package ran the workspace root's lifecycle scripts too
  const installs = exact.has("preinstall") && manager !== "npm";
  const rootward = npm?.rootward ?? (installs ? (manager === "bun" ? BUN_INSTALLING : INSTALLING) : []);
  const workspace = manager === "yarn" && !!ops[0]?.known && /^workspaces?$/.test(ops[0].text);
  return { names, exact, member: npm?.member ?? [], rootward, any, workspace, runsNone: !!ops[0]?.known && RUNS_NONE.has(ops[0].text) };
}

/**
 * The scripts `names` (undefined: all) of the package.json where the command runs, or `under` it —
 * the nearest one up from there, as npm, pnpm, yarn and bun look for it — with `more.member` of it
 * when a package.json is above it, the scripts `more.rootward` of each package.json above it, and
 * `more.packages` (undefined: all) of each package of a workspace rooted at any of those.
 */
function readScripts(
  disk: Disk,
  under: string | undefined,
  names: string[] | undefined,
  seg: Segment,
  more: { member: string[]; rootward: string[]; packages: string[] | undefined },
): Script[] | { unknown: string } {
  const control = disk.control!;
  const file = under === undefined ? "package.json" : `${under}/package.json`;
  if (rewritten(file, seg, disk.segments)) return { unknown: `another part of the command may change ${file} before it runs its scripts` };
  // a config file there says what runs them (`.npmrc`'s script-shell and node-options, a pnpmfile's hooks, bunfig's preload);
  // given `--prefix DIR`, npm reads DIR/etc/npmrc as its global config too
  const configs = under === undefined ? CONFIGS : [...CONFIGS, "etc/npmrc"].map((name) => `${under}/${name}`);
  const config = configs.find((name) => rewritten(name, seg, disk.segments));
  if (config) return { unknown: `another part of the command may change ${config}, which says what runs its scripts, before it runs them` };
  const git = disk.segments.find((s) => s !== seg && checksOut(s));
  if (git) return { unknown: `\`${git.words.map((w) => w.text).join(" ")}\` may check out another ${file} before it runs its scripts` };
  const f = onWindows(control) ? WINDOWS : POSIX;
  const at = under === undefined ? undefined : expand({ text: under, raw: under, unknown: false, glob: false }, control.home);
  const abs = at === undefined ? undefined : f.absolute(at);
  const dirs = abs !== undefined ? [abs] : directories(disk.segments, control, f)?.map((d) => (at === undefined ? d : f.join(d, at)));
  if (!dirs) return { unknown: AWAY }; // `cd "$D" && npm run release`
  const out: Script[] = [];
  const seen = new Map<string, boolean>(); // the directories above already read: whether a package.json is there
  const taken = new Set<string>(); // a script of a directory read once, though several lists name it
  const take = (dir: string, scripts: Record<string, string>, wanted: string[], file?: string) => {
    for (const name of wanted)
      if (Object.hasOwn(scripts, name) && !taken.has(`${dir}\0${name}`)) {
        taken.add(`${dir}\0${name}`);
        out.push({ name, text: scripts[name]!, dir, ...(file && { file }) });
      }
  };
  const roots = new Set<string>(); // the directories whose workspace's packages were read
  for (const dir of dirs) {
    // a directory with no package.json: the managers run the nearest one's above, in its directory
    let own = f.normalize(dir);
    let scripts = control.packageScripts!(own);
    for (let up = f.normalize(f.join(own, "..")); scripts === undefined && up !== own; up = f.normalize(f.join(up, ".."))) {
      own = up;
      scripts = control.packageScripts!(own);
    }
    if (typeof scripts === "string") return { unknown: scripts };
    if (scripts === undefined) continue;
    const shown = own === f.normalize(dir) ? undefined : f.join(own, "package.json");
    take(own, scripts, names ?? Object.keys(scripts), shown);
    if (!more.rootward.length && !more.member.length && more.packages?.length === 0) continue;
    // the directories above, up to the root: which one is the workspace's root is not looked for;
    // above the directory as written and above where its links lead (pnpm and yarn look from there)
    const real = control.realDir?.(own) ?? own;
    if (typeof real !== "string") return real;
    let above = false;
    for (const from of new Set([own, f.normalize(real)]))
      for (let at = from, up = f.normalize(f.join(from, "..")); up !== at; at = up, up = f.normalize(f.join(up, ".."))) {
        if (!seen.has(up)) {
          const upper = control.packageScripts!(up);
          if (typeof upper === "string") return { unknown: upper };
          if (upper) take(up, upper, more.rootward, f.join(up, "package.json"));
          seen.set(up, upper !== undefined);
        }
        above ||= seen.get(up)!;
      }
    if (above) take(own, scripts, more.member, shown);
    if (more.packages?.length === 0) continue;
    if (!control.workspacePackages) return { unknown: "it runs the scripts of a workspace's packages, which hey cannot list here" };
    for (const root of [own, ...[...seen].filter(([, there]) => there).map(([up]) => up)]) {
      if (roots.has(root)) continue;
      roots.add(root);
      const packages = control.workspacePackages(root);
      if ("unknown" in packages) return { unknown: packages.unknown };
      for (const dir of packages) {
        const scripts = control.packageScripts!(dir);
        if (typeof scripts === "string") return { unknown: scripts };
        if (scripts) take(f.normalize(dir), scripts, more.packages ?? Object.keys(scripts), f.join(dir, "package.json"));
      }
    }
  }
  return out;
}

/**
 * Why the scripts `seg` runs (scriptsRun: read and judged first, so that a script a deny entry
 * names is said) may still not be what runs: a word known only at run time that could be one of
 * the manager's options that change it (`npm test "$X"`, X `--node-options=--import=…`). Undefined: none.
 */
export function unreadOption(seg: Segment): string | undefined {
  for (const s of [seg, ...runnerTails(seg)]) {
    const at = managerOptions(s.words).find((k) => !decided(s.words[k]!));
    if (at === undefined) continue;
    const safe = [...s.words.slice(0, at), { raw: "--" }, ...s.words.slice(at)].map((w) => w.raw).join(" ");
    return `\`${s.words[at]!.raw}\` is known only at run time and could be an option that changes what runs its scripts (\`--script-shell\`, \`--node-options\`): put \`--\` before the script's arguments (\`${safe}\`)`;
  }
  return undefined;
}

/** Whether `s` is a git (or gh) command that may rewrite the work tree (`git checkout other`, `git pull`, `gh pr checkout 12`), or one whose subcommand is known only at run time. */
function checksOut(s: Segment): boolean {
  const first = s.words[0];
  // gh-pr-checkout(1): "Check out a pull request in git" (`gh pr checkout 12 && npm test`)
  if (first && decided(first) && program(first.text) === "gh") {
    const [area, sub] = s.words.slice(1).filter((w) => !decided(w) || !w.text.startsWith("-"));
    return !!area && (!decided(area) || (area.text === "pr" && !!sub && (!decided(sub) || sub.text === "checkout" || sub.text === "co")));
  }
  if (!first || !decided(first) || program(first.text) !== "git") return false;
  const read = readGit(s.words);
  if (!read) return true;
  const sub = read.sub === undefined ? undefined : s.words[read.sub];
  return !!sub && (!decided(sub) || CHECKS_OUT.has(sub.text));
}
