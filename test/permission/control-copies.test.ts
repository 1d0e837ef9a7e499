// x144 #5: extractors and tree copies the checker did not know. `jar xf`, `ar x`, `python3 -m
// zipfile -e`/`tarfile -e` write an archive's files as `tar -x` does, and `cp -r x/hey
// ~/.local/state/`, `cp -r x/. ~/.config/`, `rsync -a x/ ~/.config/` merge a folder into one above a
// control file, overwriting it. Each is now refused where `tar -x` is; copies into the project, and
// copies landing in a folder holding none (`cp -r x/nvim ~/.config/`), still run.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-copies-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const programs = ["jar", "ar", "python3", "cp", "rsync", "scp", "ditto", "cd", "unrar", "unar"];
const allowing = permissionCheck({ allow: programs.map((p) => `bash: ${p} *`), deny: [], narrow: [] }, "sh", { cwd: project, home, controls });
const denying = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "sh", { cwd: project, home, controls });
const refused = (out: string | undefined) => expect(out ?? "").toMatch(/^blocked by permission rules: .*hey's own configuration or trust file/);

describe("archive extractors beyond tar, unzip and 7z", () => {
  test.each([
    "cd ~/.config && jar xf /tmp/e.jar",
    "cd ~/.config/hey && jar -xf /tmp/e.jar",
    "cd ~/.config && jar --extract --file /tmp/e.jar",
    "cd ~/.local/state && ar x /tmp/e.a",
    "cd ~/.local/state/hey && ar xv /tmp/e.a",
    "python3 -m zipfile -e /tmp/e.zip ~/.config",
    "python3 -m tarfile -e /tmp/e.tar ~/.config",
    "cd ~/.config && python3 -m tarfile --extract /tmp/e.tar",
    "cd ~/.config && unrar x /tmp/e.rar",
    "cd ~/.config && unar /tmp/e.rar",
  ])("%s is refused", (command) => {
    refused(allowing("bash", { command }));
    refused(denying("bash", { command }));
  });
  test.each([
    "jar xf /tmp/e.jar",
    "cd ~/.config && jar tf /tmp/e.jar",
    "cd ~/.config && ar t /tmp/e.a",
    "ar rcs build/lib.a build/x.o",
    "python3 -m zipfile -e /tmp/e.zip out",
    "python3 -m zipfile -l /tmp/e.zip",
    "cd ~/.config && unrar l /tmp/e.rar",
  ])("%s runs", (command) => expect(allowing("bash", { command })).toBeUndefined());
});

describe("a tree copied into a folder above a control file", () => {
  test.each([
    ["cp -r /tmp/x/hey ~/.local/state/", "~/.local/state/hey", "~/.local/state/hey/approvals.json"],
    ["cp -r /tmp/x/. ~/.config/", "~/.config", "~/.config/hey/config.toml"],
    ["rsync -a /tmp/x/ ~/.config/", "~/.config", "~/.config/hey/config.toml"],
    ["cp -r /tmp/x/hey ~/.config", "~/.config/hey", "~/.config/hey/config.toml"],
    ["cp -a -t ~/.local/state /tmp/x/hey", "~/.local/state/hey", "~/.local/state/hey/approvals.json"],
    ["cp -rT /tmp/x ~/.config", "~/.config", "~/.config/hey/config.toml"],
    ["cp -r /tmp/x/* ~/.local/state/", "~/.local/state/*", "~/.local/state/hey/approvals.json"],
    ["rsync -av --exclude node_modules /tmp/x/hey ~/.local/state", "~/.local/state/hey", "~/.local/state/hey/approvals.json"],
    ["cd ~ && cp -r /tmp/x/.config .", "~/.config", "~/.config/hey/config.toml"],
    ["scp -r /tmp/x/hey ~/.local/state/", "~/.local/state/hey", "~/.local/state/hey/approvals.json"],
    ["ditto /tmp/x ~/.config", "~/.config", "~/.config/hey/config.toml"],
  ])("%s is refused, naming where it lands", (command, into, file) => {
    const refusal = `blocked by permission rules: \`${command.replace(/^cd ~ && /, "")}\` copies files into \`${into}\`, where they may replace hey's own configuration or trust file \`${file}\`, which the agent may not change`;
    expect(allowing("bash", { command })).toBe(refusal);
    expect(denying("bash", { command })).toBe(refusal);
  });
  test.each([
    "cp -r /tmp/x/nvim ~/.config/",
    "rsync -a /tmp/x/nvim ~/.config/",
    "cp -r ~/.config /tmp/backup",
    "rsync -a ~/.config/ /tmp/backup/",
    "cp -a ../template/. .",
    "rsync -a /tmp/x/ ./",
    "cp -r /tmp/x/. sub",
    "cp /tmp/x/hey ~/.local/state/",
    "rsync -av /tmp/x/ host:.config/",
    "scp -r /tmp/x/hey host:.local/state/",
    "ditto --keepParent /tmp/x/nvim ~/.config",
  ])("%s runs", (command) => expect(allowing("bash", { command })).toBeUndefined());

  // what the refusal says, with real cp: the copy lands in the folder of the source's name, or (`SRC/.`) in the destination itself
  test("real cp -r merges into the folder named and overwrites the file there", () => {
    const src = join(tmp.path, "src");
    mkdirSync(join(src, "hey"), { recursive: true });
    writeFileSync(join(src, "hey", "approvals.json"), "{forged}\n");
    const dest = join(tmp.path, "state");
    mkdirSync(join(dest, "hey"), { recursive: true });
    writeFileSync(join(dest, "hey", "approvals.json"), "{}\n");
    expect(Bun.spawnSync(["cp", "-r", join(src, "hey"), `${dest}/`]).exitCode).toBe(0);
    expect(readFileSync(join(dest, "hey", "approvals.json"), "utf8")).toBe("{forged}\n");
    writeFileSync(join(dest, "hey", "approvals.json"), "{}\n");
    expect(Bun.spawnSync(["cp", "-r", `${src}/.`, dest]).exitCode).toBe(0);
    expect(readFileSync(join(dest, "hey", "approvals.json"), "utf8")).toBe("{forged}\n");
  });
});
