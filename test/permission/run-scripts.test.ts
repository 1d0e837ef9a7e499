// A deny entry judges what package.json's scripts run (run-scripts.ts): `npm run release`, `yarn
// release`, `pnpm run deploy`, `bun run ship`, `npm test` and a bare `npm install` run scripts whose
// names say nothing, and a release script that publishes ran under `bash: npm publish *`. Scripts
// that run scripts are followed; `--prefix` and a `cd` first lead to the package.json read; a name
// known only at run time could be any script; a package.json the same command may replace first
// cannot be read ahead. Scripts that run nothing denied still run.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";

const tmp = tempDir("hey-scripts-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const project = join(root, "project");
const home = join(root, "home");
mkdirSync(join(project, "site"), { recursive: true });
mkdirSync(home);
const scripts = {
  build: "tsc -p .",
  postbuild: "echo built",
  release: "npm run build && np --yolo",
  deploy: "npm run release",
  ship: "pnpm publish --tag latest",
  test: "bun test",
  loop: "npm run loop",
  prepare: "husky",
  clean: "rimraf dist",
  version: "git add -A",
  check: "tsc --noEmit",
  fmt: "prettier --write .",
  init: "rm -rf .cache && node scripts/setup.js",
  prepack: "npm run build",
  start: "node server.js",
  dependencies: "patch-package",
  co: "git checkout notes.txt",
};
// scripts that each run the ten of the next level, four levels deep (10,000 runs unfolded): read in bounded time
const level = (d: number) => Array.from({ length: 10 }, (_, i) => `fan${d}_${i}`);
const fan = Object.fromEntries(
  [0, 1, 2, 3].flatMap((d) =>
    level(d).map((n) => [
      n,
      level(d + 1)
        .map((m) => `npm run ${m}`)
        .join(" && "),
    ]),
  ),
);
writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", scripts: { ...scripts, ...fan } }));
writeFileSync(
  join(project, "site", "package.json"),
  JSON.stringify({
    name: "site",
    scripts: { release: "npm publish --access public", build: "vite build", bundle: "npm run build", co: "git checkout notes.txt" },
  }),
);
writeFileSync(join(project, "site", "notes.txt"), "the site's notes\n");
// a workspace's package: pnpm and yarn 4 installing there run the workspace root's lifecycle scripts too
mkdirSync(join(project, "packages", "web"), { recursive: true });
writeFileSync(join(project, "packages", "web", "package.json"), JSON.stringify({ name: "web", scripts: { build: "vite build", prepare: "lefthook install" } }));
// a directory with no package.json: the managers run the nearest one's above
mkdirSync(join(project, "src", "lib"), { recursive: true });
// workspaces' roots: an install there (or in one of their packages) runs every package's lifecycle scripts
const json = (path: string, value: unknown) => {
  mkdirSync(join(project, path, ".."), { recursive: true });
  writeFileSync(join(project, path), typeof value === "string" ? value : JSON.stringify(value));
};
json("mono/package.json", { name: "mono", workspaces: ["./packages/*", "apps/web", "!packages/skip"] });
json("mono/packages/ui/package.json", { name: "ui", scripts: { prepare: "lefthook install", build: "vite build" } });
json("mono/packages/.cache/package.json", { scripts: { prepare: "ignored-dot" } });
json("mono/apps/web/package.json", { name: "web", scripts: { postinstall: "node fetch-assets.js" } });
json("yarn-mono/package.json", { name: "y", workspaces: { packages: ["libs/lib-*"] } });
json("yarn-mono/libs/lib-a/package.json", { scripts: { prepare: "lefthook install" } });
json("pnpm-mono/package.json", { name: "p" });
json("pnpm-mono/pnpm-workspace.yaml", "packages:\n  - 'tools/*' # every tool\n  - \"!**/test/**\"\n\ncatalog:\n  react: ^19\n");
json("pnpm-mono/tools/gen/package.json", { scripts: { prepare: "lefthook install", test: "vitest run" } });
json("pnpm-flow/pnpm-workspace.yaml", "packages: [a, 'b']\n");
json("pnpm-flow/package.json", { name: "f" });
json("pnpm-flow/b/package.json", { scripts: { install: "lefthook install" } });
json("deep-mono/package.json", { name: "d", workspaces: ["packages/**"] });
json("deep-mono/packages/group/a/package.json", { name: "a", scripts: { prepare: "lefthook install", build: "vite build" } });
json("deep-mono/packages/group/a/node_modules/dep/package.json", { scripts: { prepare: "ignored-nm" } });
json("deep-mono/packages/group/a/src/lib/util.ts", "export {};\n");
// pnpm's documented example (pnpm.io/pnpm-workspace_yaml): `components/**` beside `packages/*`
json(
  "pnpm-docs/pnpm-workspace.yaml",
  "packages:\n  # specify a package in a direct subdir of the root\n  - 'my-app'\n  # all packages in direct subdirs of packages/\n  - 'packages/*'\n  # all packages in subdirs of components/\n  - 'components/**'\n  # exclude packages that are inside test directories\n  - '!**/test/**'\n",
);
json("pnpm-docs/package.json", { name: "docs", private: true });
json("pnpm-docs/packages/core/package.json", { name: "core", scripts: { build: "tsup", postinstall: "node setup.js" } });
json("pnpm-docs/components/ui/button/package.json", { name: "button", scripts: { clean: "rm -rf dist", prepare: "lefthook install" } });
json("bracket-mono/package.json", { name: "b", workspaces: ["packages/[ab]*"] });
// a link to the workspace's package from outside it: pnpm and yarn look above where it leads
symlinkSync(join(project, "packages", "web"), join(root, "web-link"));
const place = { cwd: project, home, controls: [join(home, ".config", "hey", "config.toml")] };
const under = (entry: string, cwd = project) => permissionCheck({ allow: [], deny: [`bash: ${entry}`], narrow: [] }, "sh", { ...place, cwd });

test.each([
  [
    "npm publish *",
    "npm run release",
    "runs package.json's script `release` (`npm run build && np --yolo`): `np --yolo` matches deny entry `bash: npm publish *` by another name",
  ],
  ["npm publish *", "npm run-script release -- --tag beta", "runs package.json's script `release`"],
  ["npm publish *", "yarn release", "runs package.json's script `release`"],
  ["npm publish *", "pnpm run deploy", "runs package.json's script `deploy` (`npm run release`): `npm run release` runs package.json's script `release`"],
  ["npm publish *", "bun run ship", "`pnpm publish --tag latest` matches deny entry `bash: npm publish *` by another name"],
  [
    "npm publish *",
    "npm --prefix site run release",
    "runs package.json's script `release` (`npm publish --access public`): `npm publish --access public` matches deny entry",
  ],
  ["npm publish *", "cd site && npm run release", "runs package.json's script `release`"],
  ["npm publish *", 'npm run "$TASK"', "runs package.json's script `release`"],
  ["bun test *", 'npm "$CMD"', "runs package.json's script `test` (`bun test`)"], // npm's command known only at run time: `test` is one
  ["rm *", "npm run clean", "runs package.json's script `clean` (`rimraf dist`)"],
  ["husky *", "npm ci", "runs package.json's script `prepare` (`husky`)"],
  ["npm publish *", "node --run release", "runs package.json's script `release`"],
  ["npm publish *", "node --run=ship", "runs package.json's script `ship`"],
  ["npm publish *", "npm run fan0_0", "its package.json scripts run more scripts than hey follows (64)"],
  // npm's commands that run lifecycle scripts: install-test, pack, publish, version
  ["husky *", "npm it", "runs package.json's script `prepare` (`husky`)"],
  ["bun test *", "npm cit", "runs package.json's script `test` (`bun test`)"],
  ["husky *", "npm pack --dry-run", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "npm publish", "runs package.json's script `prepare` (`husky`)"],
  ["git add *", "npm version patch", "runs package.json's script `version` (`git add -A`)"],
  // the same command may put another package.json there first: what runs is not what hey reads now
  ["npm publish *", `echo '{"scripts":{"test":"npm publish"}}' > package.json && npm test`, "another part of the command may change package.json"],
  ["npm publish *", "cp site/package.json . && npm run release", "another part of the command may change package.json"],
  ["npm publish *", "ln -sf site/package.json package.json; yarn build", "another part of the command may change package.json"],
  ["npm publish *", "mv /tmp/x/package.json ./ && npm test", "another part of the command may change package.json"],
  ["npm publish *", 'cp "$F" site/package.json && npm --prefix site run build', "another part of the command may change site/package.json"],
  // git may put another package.json there first: a branch's, a pull's
  ["npm publish *", "git checkout other && npm test", "`git checkout other` may check out another package.json before it runs its scripts"],
  ["npm publish *", "git pull && npm run build", "`git pull` may check out another package.json"],
  ["npm publish *", "git -C . switch main; yarn build", "`git -C . switch main` may check out another package.json"],
  // through a package runner: the program it runs runs the script
  // (a deny entry naming npm refuses a runner running npm anyway)
  ["bun test *", "npx npm test", "runs package.json's script `test` (`bun test`)"],
  ["rm *", "npx -y npm@10 run clean", "runs package.json's script `clean` (`rimraf dist`)"],
  ["bun test *", "npm exec -- npm test", "runs package.json's script `test`"],
  ["npm publish *", "corepack pnpm deploy", "runs package.json's script `deploy`"],
  ["npm publish *", "bunx yarn ship", "runs package.json's script `ship`"],
  // yarn's workspace commands and deno.json's tasks are not read
  ["npm publish *", "yarn workspace web build", "cannot verify `yarn workspace web build`: it runs the scripts of a workspace's packages"],
  ["npm publish *", "yarn workspaces foreach -A run build", "it runs the scripts of a workspace's packages"],
  ["npm publish *", "deno task release", "cannot verify `deno task release`: it runs a task of deno.json"],
  // --ignore-scripts still runs the script a command names
  ["npm publish *", "npm run release --ignore-scripts", "runs package.json's script `release`"],
  ["bun test *", "npm test --ignore-scripts", "runs package.json's script `test`"],
  ["bun test *", "npm it --ignore-scripts", "runs package.json's script `test`"],
  // npm takes a `true` or `false` after the flag as its value: `false` runs them all
  ["husky *", "npm ci --ignore-scripts false", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "npm --ignore-scripts false install", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", 'npm ci --ignore-scripts "$X"', "runs package.json's script `prepare` (`husky`)"],
  // a directory known only at run time: its package.json could hold any script
  [
    "npm publish *",
    'cd "$(git rev-parse --show-toplevel)" && npm run release',
    "cannot verify `npm run release`: it runs the scripts of a package.json in a directory known only at run time",
  ],
  ["husky *", 'npm --prefix "$D" run build', "in a directory known only at run time"],
  ["npm publish *", 'pnpm -C "$D" release', "in a directory known only at run time"],
  ["npm publish *", "gh pr checkout 12 && npm test", "`gh pr checkout 12` may check out another package.json before it runs its scripts"],
  // bun runs a script by its name alone when no command of its own has that name
  ["rm *", "bun clean", "runs package.json's script `clean` (`rimraf dist`)"],
  ["tsc *", "bun run build", "runs package.json's script `build` (`tsc -p .`)"],
  // bun check and bun fmt are bun's own only where package.json has no script of that name: bun runs the script first
  ["tsc *", "bun check", "runs package.json's script `check` (`tsc --noEmit`)"],
  ["prettier *", "bun fmt", "runs package.json's script `fmt` (`prettier --write .`)"],
  // bun's commands that install run the package's lifecycle scripts (postinstall, prepare), whatever their name
  ["husky *", "bun i", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "bun add left-pad", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "bun remove left-pad", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "bun link left-pad", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "bun install", "runs package.json's script `prepare` (`husky`)"],
  // pnpm's and yarn's commands that install run the package's lifecycle scripts (seen with pnpm 10 and 12, yarn 1 and 4)
  ["husky *", "pnpm i", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "pnpm install", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "pnpm add left-pad", "runs package.json's script `prepare` (`husky`)"], // in a workspace
  ["husky *", "pnpm rebuild", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "pnpm link ../lib", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "yarn", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "yarn install --frozen-lockfile", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "yarn add left-pad", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "yarn rebuild", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "yarn upgrade", "runs package.json's script `prepare` (`husky`)"],
  // pnpm 12 installs first when the dependencies are out of date, before a script or a program runs
  ["husky *", "pnpm test", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "pnpm run build", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "pnpm exec tsc", "runs package.json's script `prepare` (`husky`)"],
  // their pack and publish run prepack, prepare and postpack; pnpm's t is test, its restart runs stop and start too
  ["husky *", "pnpm pack", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "pnpm publish --dry-run", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "yarn publish", "runs package.json's script `prepare` (`husky`)"],
  ["tsc *", "yarn npm publish", "runs package.json's script `prepack` (`npm run build`)"],
  ["bun test *", "pnpm t", "runs package.json's script `test` (`bun test`)"],
  ["node *", "pnpm restart", "runs package.json's script `start` (`node server.js`)"],
  // --ignore-scripts after a script's name goes to the script: pnpm 12 still installs first
  ["husky *", "pnpm test --ignore-scripts", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "pnpm install --ignore-scripts false", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", 'yarn --ignore-scripts "$X"', "runs package.json's script `prepare` (`husky`)"],
  ["git add *", "yarn version --ignore-scripts", "runs package.json's script `version` (`git add -A`)"], // yarn 1 runs them anyway
  ["bun test *", "pnpm it --ignore-scripts", "runs package.json's script `test` (`bun test`)"],
  // in a workspace's package, the root's (every package.json above is read: which is the root is not looked for)
  ["husky *", "cd packages/web && pnpm add left-pad", "runs package.json's script `prepare` (`husky`)"], // the cd may fail: both are read
  ["husky *", "pnpm -C packages/web test", "/project/package.json's script `prepare` (`husky`)"],
  ["husky *", "yarn --cwd packages/web install", "/project/package.json's script `prepare` (`husky`)"],
  // an option's value before the command (yarn 1, pnpm 12 and npm ran the command after it)
  ["husky *", "yarn --network-timeout 1000 install", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "yarn --mutex network add left-pad", "runs package.json's script `prepare` (`husky`)"],
  ["bun test *", "pnpm --reporter silent test", "runs package.json's script `test` (`bun test`)"],
  ["bun test *", "npm --loglevel silent test", "runs package.json's script `test` (`bun test`)"],
  ["husky *", "npm --loglevel silent install", "runs package.json's script `prepare` (`husky`)"],
  // the last --ignore-scripts said wins (npm and pnpm ran the scripts)
  ["husky *", "pnpm install --ignore-scripts --no-ignore-scripts", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "pnpm add left-pad --ignore-scripts --ignore-scripts=false", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "npm ci --ignore-scripts --ignore-scripts=false", "runs package.json's script `prepare` (`husky`)"],
  // a workspace's package reached through a link: pnpm 12 ran the root's lifecycle (it looks above the real directory)
  ["husky *", `pnpm --dir ${root}/web-link add left-pad`, "/project/package.json's script `prepare` (`husky`)"],
  // pnpm's patch-commit and patch-remove install after changing the patches
  ["husky *", "pnpm patch-commit /tmp/edit-dep", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "pnpm patch-remove left-pad", "runs package.json's script `prepare` (`husky`)"],
  ["husky *", "yarn upgrade-interactive --latest", "runs package.json's script `prepare` (`husky`)"],
  // pnpm's -C with its directory in the same word runs there
  ["vite *", "pnpm -Cpackages/web build", "runs package.json's script `build` (`vite build`)"],
  // npm's commands that change node_modules run its dependencies scripts (npm 11); its rebuild and link the install's
  ["patch-package *", "npm i left-pad", "runs package.json's script `dependencies` (`patch-package`)"],
  ["patch-package *", "npm uninstall left-pad", "runs package.json's script `dependencies` (`patch-package`)"],
  ["patch-package *", "npm update", "runs package.json's script `dependencies` (`patch-package`)"],
  ["patch-package *", "npm ci", "runs package.json's script `dependencies` (`patch-package`)"],
  ["husky *", "npm link", "runs package.json's script `prepare` (`husky`)"],
  // a script runs in its own package.json's directory: a script it runs is read from there
  ["vite *", "npm --prefix site run bundle", "runs package.json's script `build` (`vite build`)"],
  // and a file it names is looked for there: site/notes.txt, which `git checkout notes.txt` overwrites
  ["git reset --hard *", "npm --prefix site run co", "git checkout `notes.txt` overwrites the changes to the file or directory of that name"],
])("deny %j refuses %j", (entry, command, names) => {
  expect(under(entry)("bash", { command })).toContain(names);
});

test.each([
  ["npm publish *", "npm run build"],
  ["npm publish *", "yarn build"],
  ["npm publish *", "npm test"],
  ["npm publish *", "npm install"],
  ["npm publish *", "npm run loop"], // runs itself: followed a few levels, nothing denied
  ["npm publish *", "npm run missing"],
  ["npm publish *", "node --run build"],
  ["npm publish *", "node build.js"],
  ["npm publish *", "npm --prefix site run build"],
  ["rm *", "npm run release"],
  ["npm publish *", "npm install && npm test"],
  ["rm *", "npm toString"], // no lifecycle of npm's: an Object's own names are not one (the check threw)
  ["rm *", "npm constructor"],
  ["npm publish *", "git add package.json && git commit -m bump && npm test"],
  ["npm publish *", "npm test > out.log 2>&1"],
  ["npm publish *", "cp package.json /tmp/package.json.bak && npm run build"],
  ["npm publish *", "git status && git diff && npm test"],
  ["rm *", "npx npm run build"],
  ["npm publish *", "npx prettier --write ."],
  ["npm publish *", "deno run main.ts"],
  ["npm publish *", "deno task"], // lists the tasks
  ["npm publish *", "pnpm -r list"],
  ["npm publish *", "npm -w web ls"],
  ["npm publish *", "pnpm --filter web why react"],
  // npm's --ignore-scripts runs no pre, post or lifecycle script (npm's config docs)
  ["echo *", "npm run build --ignore-scripts"], // not postbuild's `echo built`
  ["husky *", "npm ci --ignore-scripts"],
  ["husky *", "npm ci --ignore-scripts true"],
  ["husky *", 'npm --prefix "$D" ls'], // runs no script
  ["npm publish *", "gh pr view 12 && npm test"],
  ["husky *", "npm install --ignore-scripts"],
  ["husky *", "npm pack --ignore-scripts=true"],
  ["git add *", "npm version patch --ignore-scripts"],
  // bun's own commands come before a script of their name (`bun build` bundles, `bun test` runs bun's test runner)
  ["tsc *", "bun build ./src/index.ts --outdir dist"],
  ["tsc *", "bun build"],
  // pnpm's and yarn's own commands that run no script: not one of their name
  ["rm *", "pnpm init"],
  ["rm *", "yarn init -y"],
  ["husky *", "pnpm fetch"],
  ["husky *", "pnpm list"],
  ["husky *", "yarn why left-pad"],
  ["husky *", "yarn --version"], // a bare yarn installs, but not when it only prints
  // pnpm's and yarn's --ignore-scripts: an install, pack or publish runs no lifecycle script
  ["husky *", "pnpm install --ignore-scripts"],
  ["husky *", "pnpm --ignore-scripts add left-pad"],
  ["husky *", "yarn --ignore-scripts"],
  ["husky *", "yarn add left-pad --ignore-scripts=true"],
  ["husky *", "pnpm pack --ignore-scripts"],
  // an option known to take no value: the word after it is the command
  ["husky *", "yarn --silent why left-pad"],
  ["husky *", "yarn --frozen-lockfile why left-pad"],
  ["husky *", "pnpm it --ignore-scripts"],
  ["husky *", "cd packages/web && pnpm add left-pad --ignore-scripts"],
  ["husky *", "cd packages/web && yarn build"],
  // npm installing a package in a package.json with none above runs none of its install's scripts
  ["husky *", "npm i left-pad"],
  ["husky *", "npm rebuild"],
  ["patch-package *", "npm i left-pad --ignore-scripts"],
  // bun's --ignore-scripts skips the lifecycle scripts of the package and the workspace's root (bun 1.4.5)
  ["husky *", "bun install --ignore-scripts"],
  ["husky *", "bun add --ignore-scripts left-pad"],
  ["husky *", "bun --ignore-scripts i"],
  ["husky *", "bun remove left-pad --ignore-scripts"],
  ["tsc *", "npm --prefix site run bundle"], // site's build, not this package.json's
  ["git reset --hard *", "npm run co"], // no notes.txt here: `git checkout notes.txt` is a branch
])("deny %j lets %j run", (entry, command) => {
  expect(under(entry)("bash", { command })).toBeUndefined();
});

// run in a workspace's package (npm 11.19, bun 1.4.5): an install there runs the workspace root's lifecycle scripts too, and npm's
// commands that change node_modules run the package's own install scripts (its link is rebuilt) and the root's dependencies scripts
test.each([
  ["husky *", "npm install", "/project/package.json's script `prepare` (`husky`)"],
  ["husky *", "npm ci", "/project/package.json's script `prepare` (`husky`)"],
  ["husky *", "npm it", "/project/package.json's script `prepare` (`husky`)"],
  ["patch-package *", "npm i left-pad", "/project/package.json's script `dependencies` (`patch-package`)"],
  ["lefthook *", "npm i left-pad", "runs package.json's script `prepare` (`lefthook install`)"],
  ["lefthook *", "npm uninstall left-pad", "runs package.json's script `prepare` (`lefthook install`)"],
  ["lefthook *", "npm rebuild", "runs package.json's script `prepare` (`lefthook install`)"],
  ["husky *", "bun install", "/project/package.json's script `prepare` (`husky`)"],
  ["husky *", "bun add left-pad", "/project/package.json's script `prepare` (`husky`)"],
])("in a workspace's package, deny %j refuses %j", (entry, command, names) => {
  expect(under(entry, join(project, "packages", "web"))("bash", { command })).toContain(names);
});

test.each([
  ["husky *", "npm install --ignore-scripts"],
  ["husky *", "bun install --ignore-scripts"],
  ["husky *", "npm run build"], // the root's scripts run only for an install
  ["husky *", "bun run build"],
])("in a workspace's package, deny %j lets %j run", (entry, command) => {
  expect(under(entry, join(project, "packages", "web"))("bash", { command })).toBeUndefined();
});

// a directory with no package.json: npm, pnpm, yarn and bun run the nearest one's above, in its directory
test.each([
  ["rimraf *", "npm run clean", "/project/package.json's script `clean` (`rimraf dist`)"],
  ["husky *", "npm install", "/project/package.json's script `prepare` (`husky`)"],
  ["rimraf *", "yarn clean", "/project/package.json's script `clean` (`rimraf dist`)"],
  ["husky *", "bun i", "/project/package.json's script `prepare` (`husky`)"],
  ["rimraf *", "pnpm run clean", "/project/package.json's script `clean` (`rimraf dist`)"],
])("in a directory below the package, deny %j refuses %j", (entry, command, names) => {
  expect(under(entry, join(project, "src", "lib"))("bash", { command })).toContain(names);
});

// at a workspace's root, or in one of its packages: an install runs the lifecycle scripts of every package (npm 11.19, bun 1.4.5)
test.each([
  ["mono", "npm install", "/mono/packages/ui/package.json's script `prepare` (`lefthook install`)"],
  ["mono", "npm ci", "/mono/packages/ui/package.json's script `prepare` (`lefthook install`)"],
  ["mono", "npm i left-pad", "/mono/packages/ui/package.json's script `prepare` (`lefthook install`)"],
  ["mono", "npm rebuild", "/mono/packages/ui/package.json's script `prepare` (`lefthook install`)"],
  ["mono", "bun install", "/mono/packages/ui/package.json's script `prepare` (`lefthook install`)"],
  ["mono/apps/web", "bun add left-pad", "/mono/packages/ui/package.json's script `prepare` (`lefthook install`)"], // a package beside it
  ["mono", "yarn", "/mono/packages/ui/package.json's script `prepare` (`lefthook install`)"],
  ["yarn-mono", "yarn install", "/yarn-mono/libs/lib-a/package.json's script `prepare` (`lefthook install`)"],
  ["pnpm-mono", "pnpm install", "/pnpm-mono/tools/gen/package.json's script `prepare` (`lefthook install`)"],
  ["pnpm-flow", "pnpm i", "/pnpm-flow/b/package.json's script `install` (`lefthook install`)"],
  // `**`: every directory below (pnpm's own example has `components/**`), where it was "cannot verify" whatever the packages ran
  ["deep-mono", "npm install", "/deep-mono/packages/group/a/package.json's script `prepare` (`lefthook install`)"],
  ["pnpm-docs", "pnpm install", "/pnpm-docs/components/ui/button/package.json's script `prepare` (`lefthook install`)"],
  ["bracket-mono", "npm install", "cannot verify `npm install`: its workspaces pattern `packages/[ab]*` is not one hey expands"],
])('in %s, deny "lefthook *" refuses %j', (dir, command, names) => {
  expect(under("lefthook *", join(project, dir))("bash", { command })).toContain(names);
});

test.each([
  ["mono", "npm install --ignore-scripts"],
  ["mono", "bun install --ignore-scripts"],
  ["mono", "npm run build"], // running a script installs nothing
  ["mono", "npm ls"],
  ["deep-mono", "npm test"],
])('in %s, deny "lefthook *" lets %j run', (dir, command) => {
  expect(under("lefthook *", join(project, dir))("bash", { command })).toBeUndefined();
});

// a workspace whose pattern has `**` (pnpm's documented example) under an ordinary deny list: its installs and builds run
test.each([
  ["pnpm-docs", "rm -rf *", "pnpm install"],
  ["pnpm-docs", "rm -rf *", "pnpm -r build"],
  ["pnpm-docs/packages/core", "rm -rf *", "pnpm add zod"],
  ["deep-mono", "ignored-nm", "npm install"], // a package in node_modules is no package of the workspace
])("in %s, deny %j lets %j run", (dir, entry, command) => {
  expect(under(entry, join(project, dir))("bash", { command })).toBeUndefined();
});

test.each([["pnpm-docs", "rm -rf *", "pnpm -r clean", "/pnpm-docs/components/ui/button/package.json's script `clean` (`rm -rf dist`)"]])(
  "in %s, deny %j refuses %j, read from a package `**` names",
  (dir, entry, command, names) => {
    expect(under(entry, join(project, dir))("bash", { command })).toContain(names);
  },
);

// -w, --workspaces, -r, --filter: the scripts they run, read from every package of the workspace
test.each([
  ["mono", "vite *", "npm -w ui run build", "/mono/packages/ui/package.json's script `build` (`vite build`)"],
  ["mono", "vite *", "npm run build --workspaces", "/mono/packages/ui/package.json's script `build` (`vite build`)"],
  ["mono", "vite *", "npm run build --workspace=packages/ui", "/mono/packages/ui/package.json's script `build` (`vite build`)"],
  ["mono", "vite *", "bun run --filter ui build", "/mono/packages/ui/package.json's script `build` (`vite build`)"],
  ["mono/apps/web", "vite *", "npm -w ui run build", "/mono/packages/ui/package.json's script `build` (`vite build`)"],
  ["mono", "vite *", 'npm -w ui run "$S"', "/mono/packages/ui/package.json's script `build` (`vite build`)"],
  ["pnpm-mono", "vitest *", "pnpm -r test", "/pnpm-mono/tools/gen/package.json's script `test` (`vitest run`)"],
  ["pnpm-mono", "vitest *", "npx pnpm --filter gen test", "/pnpm-mono/tools/gen/package.json's script `test` (`vitest run`)"],
  ["pnpm-mono", "lefthook *", "pnpm -r exec tsc", "/pnpm-mono/tools/gen/package.json's script `prepare` (`lefthook install`)"], // pnpm 12 installs first
  ["deep-mono", "vite *", "npm -w x run build", "/deep-mono/packages/group/a/package.json's script `build` (`vite build`)"],
])("in %s, deny %j refuses %j", (dir, entry, command, names) => {
  expect(under(entry, join(project, dir))("bash", { command })).toContain(names);
});

test.each([
  ["mono", "tsc *", "npm -w ui run build"], // ui's build is vite's
  ["mono", "vite *", "npm -w ui run lint"], // no lint script
  ["mono", "vite *", "npm -w ui ls"],
  ["mono", "lefthook *", "npm run build --workspaces --ignore-scripts"],
  ["", "npm publish *", "npm -w pkg run build"], // no workspace here: this package.json's build
  ["", "npm publish *", "pnpm --filter web build"],
])("in %j, deny %j lets %j run", (dir, entry, command) => {
  expect(under(entry, join(project, dir))("bash", { command })).toBeUndefined();
});

test("a workspace's package in a directory whose name starts with a dot is not one (npm's globs skip them)", () => {
  expect(under("ignored-dot", join(project, "mono"))("bash", { command: "npm install" })).toBeUndefined();
});

test("a package.json npm reads is read too: one that starts with a byte order mark, and one too large to read is refused", () => {
  mkdirSync(join(project, "bom"));
  writeFileSync(join(project, "bom", "package.json"), `\uFEFF${JSON.stringify({ scripts: { release: "npm publish" } })}`);
  expect(under("npm publish *")("bash", { command: "npm --prefix bom run release" })).toContain("runs package.json's script `release` (`npm publish`)");
  mkdirSync(join(project, "big"));
  writeFileSync(join(project, "big", "package.json"), JSON.stringify({ description: "x".repeat(1 << 20), scripts: { build: "npm publish" } }));
  expect(under("npm publish *")("bash", { command: "cd big && npm run build" })).toContain(
    "cannot verify `npm run build`: its package.json is over 1 MB, more than hey reads",
  );
  // npm's install of a package runs its dependencies scripts, which hey cannot read there
  expect(under("npm publish *")("bash", { command: "cd big && npm install lodash" })).toContain(
    "cannot verify `npm install lodash`: its package.json is over 1 MB",
  );
  expect(under("npm publish *")("bash", { command: "cd big && npm ls" })).toBeUndefined(); // runs no script of its
});

// a global install (`npm i -g typescript`) puts a registry package in the global prefix: no script of
// the project where it is typed runs, where hey read this package's (and its workspace's) install scripts
test.each([
  ["mono", "npm i -g typescript"],
  ["mono", "npm install --global pnpm"],
  ["mono/packages/ui", "pnpm add -g tsx"],
  ["mono", "bun add -g cowsay"],
  ["mono", "npm uninstall -g typescript"],
])('in %s, deny "lefthook *" lets %j run', (dir, command) => {
  expect(under("lefthook *", join(project, dir))("bash", { command })).toBeUndefined();
});

test.each([
  ["mono", "npm i -g .", "/mono/packages/ui/package.json's script `prepare` (`lefthook install`)"], // this package, installed globally
  ["mono", "npm i -g typescript && npm install", "/mono/packages/ui/package.json's script `prepare` (`lefthook install`)"],
])('in %s, deny "lefthook *" refuses %j', (dir, command, names) => {
  expect(under("lefthook *", join(project, dir))("bash", { command })).toContain(names);
});
