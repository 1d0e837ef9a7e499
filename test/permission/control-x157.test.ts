// x157 #1, #2, #6: globs bash matches without regard to case (`shopt -s nocaseglob`), copies
// through a link to a directory above hey's files, and copies whose landing folder is not the
// destination's folder of the source's last name (`cp --parents`, `rsync -R`, a remote source).
// Each is refused; the everyday copies and loops still run.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { places } from "../../src/fs/places.ts";
import { parseSyntax } from "../../src/permission/shell-syntax.ts";
import { globOptions } from "../../src/permission/control-globs.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-x157-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
// links an earlier call could have made: to the home, to ~/.config, to ~/.local/state
symlinkSync(home, join(project, "hm"));
symlinkSync(join(home, ".config"), join(project, "cfg"));
symlinkSync(join(home, ".local", "state"), join(project, "st"));
// a project holding no links, for the everyday commands
const app = join(home, "src", "app");
for (const dir of [".hey", "src", "build", join("dist", "assets"), join("prefix", "bin")]) mkdirSync(join(app, dir), { recursive: true });
writeFileSync(join(app, "prefix", "bin", "tool"), "#!/bin/sh\n");
const appControls = controlFiles(places({}, home, app, "linux", app), undefined);
const lists = {
  allow: {
    allow: ["bash: cp *", "bash: mv *", "bash: rm *", "bash: rsync *", "bash: scp *", "bash: tar *", "bash: cd *", "bash: shopt *", "bash: ln *"],
    deny: [],
    narrow: [],
  },
  deny: { allow: [], deny: ["bash: curl *"], narrow: [] },
};
const refused = (out: string | undefined) => expect(out ?? "").toMatch(/^blocked by permission rules: .*(hey's own configuration|cannot verify)/);

describe.each(["allow", "deny"] as const)("under an %s list", (list) => {
  const check = permissionCheck(lists[list], "bash", { cwd: project, home, controls });
  const inApp = permissionCheck(lists[list], "bash", { cwd: app, home, controls: appControls });
  test.each([
    "shopt -s nocaseglob; cp /tmp/x ~/.config/hey/CONFIG.TOM?",
    "shopt -s nocaseglob; mv /tmp/x ~/.config/hey/CONFIG.TOM?",
    "shopt -s nocaseglob; rm ~/.local/state/hey/APPROVALS.JSO?",
    "shopt -s nocaseglob; cp /tmp/x .hey/CONFIG.TOM?",
    "shopt -s nocaseglob; cp -r /tmp/x/hey ~/.LOCAL/STAT?/",
    "shopt -s nocaseglob; tar -xf /tmp/e.tar -C ~/.CONFI?",
    "shopt -s no''caseglob; cp /tmp/x ~/.config/hey/CONFIG.TOM?",
    "bash -c 'shopt -s nocaseglob; cp /tmp/x ~/.config/hey/CONFIG.TOM?'",
    'shopt -s nocaseglob; for d in ~/.CONF?G; do (cd "$d" && tar -xf /tmp/e.tar); done',
    "shopt -s nocaseglob; cp -r /tmp/x/H?Y ~/.config/",
  ])("a glob bash matches regardless of case: %s is refused", (command) => refused(check("bash", { command })));
  test.each(["shopt -s dot''glob; cp -r /tmp/x/?config ~/", 'O=dotglob; shopt -s "$O"; cp -r /tmp/x/?config ~/'])(
    "dotglob however it is spelled, for a tree copy: %s is refused",
    (command) => refused(check("bash", { command })),
  );
  test.each([
    "cp -r /tmp/x/hey st/",
    "cd st && cp -r /tmp/x/hey .",
    "cp -r /tmp/x/hey hm/.local/state/",
    "cp -r /tmp/x/. cfg/",
    "rsync -a /tmp/x/ cfg/",
    "cp -rT /tmp/x hm/.config",
    "ditto /tmp/x hm/.config",
    "scp -r /tmp/x/hey hm/.local/state/",
    "cp -r /tmp/x/.config hm/",
  ])("a copy through a link lands where the link leads: %s is refused", (command) => refused(check("bash", { command })));
  test.each([
    "cd /tmp/x && cp -r --parents .local/state ~",
    "cd /tmp/x && rsync -aR .local/state ~/",
    "rsync -aR /tmp/x/./.local/state ~/",
    "rsync -a --relative /tmp/x/./.config/hey ~/",
    "scp -r server:hey ~/.config/",
    "rsync -a server:hey ~/.config/",
    "rsync -a user@server:/srv/hey ~/.config/",
  ])("a copy landing below the source's whole path, or a remote source's name: %s is refused", (command) => refused(check("bash", { command })));
  test.each([
    "cp -r build dist",
    "cp -r build/ dist/",
    "rsync -a --delete build/ dist/",
    "rsync -a dist/ server:/srv/",
    "rsync -avz dist/ user@server:/var/www/",
    "cp -r --parents src/hey ~/.config/",
    "cp -r prefix/bin ~/.local/",
    "rsync -aR src/hey ~/.config/",
    "shopt -s nocaseglob; cp -r build/*.JS dist/",
  ])("in a project without links, %s runs", (command) => expect(inApp("bash", { command })).toBeUndefined());
});

// a folder merged into one above hey's files is refused whatever it holds now: an earlier command may fill it (README)
test.each(["rsync -a prefix/ ~/.local/", "cp -r prefix/. ~/.local/"])("installing a prefix over ~/.local, %s is refused", (command) =>
  refused(permissionCheck(lists.deny, "bash", { cwd: app, home, controls: appControls })("bash", { command })),
);

// under an allow list no `*` matches a run-time word; under a deny list the directory alone decides
const denying = permissionCheck(lists.deny, "bash", { cwd: app, home, controls: appControls });
test.each([
  'for f in src/*.ts; do cp "$f" build/; done',
  'shopt -s nocaseglob; for f in src/*.TS; do cp "$f" build/; done',
  'for d in src build; do cp -r "$d" dist/; done',
])("under a deny list, %s runs", (command) => expect(denying("bash", { command })).toBeUndefined());

// the shell options that make a glob match more, read from the parsed words (one helper for every check)
const options = (script: string) => {
  const parsed = parseSyntax(script, "bash");
  if (!parsed.ok) throw new Error(parsed.reason);
  return globOptions(parsed.segments);
};
test.each([
  ["shopt -s nocaseglob", { dotglob: false, nocase: true }],
  ["shopt -s no''caseglob", { dotglob: false, nocase: true }],
  ["shopt -s nocasematch", { dotglob: false, nocase: true }],
  ["shopt -s dotglob", { dotglob: true, nocase: false }],
  ['O=nocaseglob; shopt -s "$O"', { dotglob: true, nocase: true }],
  [". ./env.sh", { dotglob: true, nocase: true }],
  ["bash -O nocaseglob -c 'echo *'", { dotglob: false, nocase: true }],
  ["shopt -s nullglob", { dotglob: false, nocase: false }],
])("after %j the glob options are %j", (script, want) => expect(options(script)).toEqual(want));
