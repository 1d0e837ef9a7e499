// A project's `.hey/config.toml` names the project's files: its path entries (`read_file: **/.env`,
// `edit: src/**`) are under the folder holding `.hey/`, wherever in the project hey starts — started
// in `web/`, the root `.env` it denies stays refused. The user's own entries stay relative to where
// hey runs (README "Permissions").
import TOML from "@iarna/toml";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { ConfigLayer } from "../../src/config/settings.ts";
import { anchoredEntry } from "../../src/permission/file-paths.ts";
import { permissionCheck } from "../../src/permission-check.ts";
import { tempDir } from "../helpers/e2e.ts";

const PROVIDER = '[provider.m]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m1"]\n';
const layer = (source: string, toml: string, project = false): ConfigLayer => ({ source, data: TOML.parse(toml), ...(project ? { project: true } : {}) });

test.each([
  ["read_file: **/.env", "read_file: /w/proj/**/.env"],
  ["grep: ./secrets/**", "grep: /w/proj/secrets/**"],
  ["edit: src/**", "edit: /w/proj/src/**"],
  ["write_file: ../shared/*.key", "write_file: /w/shared/*.key"],
  ["read_file: ~/.ssh/**", "read_file: ~/.ssh/**"],
  ["read_file: /etc/passwd", "read_file: /etc/passwd"],
  ["bash: rm *", "bash: rm *"],
  ["grep", "grep"],
])("a project's %p is %p", (entry, want) => {
  expect(anchoredEntry(entry, "/w/proj")).toBe(want);
});

test("a project's path entries resolve under its folder, the user's stay as written", () => {
  const { settings } = resolveConfig(
    [
      layer("/home/u/.config/hey/config.toml", `${PROVIDER}[permission]\ndeny = ["read_file: **/.env"]\nallow = ["read_file: src/**", "bash"]\n`),
      layer("/w/proj/.hey/config.toml", '[permission]\ndeny = ["read_file: **/.env", "bash: git push *"]\nallow = ["read_file: docs/**", "bash"]\n', true),
    ],
    {},
    {},
  );
  expect(settings.permission.deny).toEqual(["read_file: **/.env", "read_file: /w/proj/**/.env", "bash: git push *"]);
  expect(settings.permission.allow).toEqual(["read_file: src/**", "bash"]);
  expect(settings.permission.narrow).toEqual([{ source: "/w/proj/.hey/config.toml", allow: ["read_file: /w/proj/docs/**", "bash"] }]);
});

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir("hey-project-paths-");
});
afterEach(() => tmp.remove());

test("started in a subfolder, a project's deny of .env still keeps the root .env from read_file and grep", () => {
  const proj = realpathSync(tmp.path);
  mkdirSync(join(proj, ".hey"));
  mkdirSync(join(proj, "web"));
  writeFileSync(join(proj, ".env"), "ADMIN_PIN=4711\n");
  const { settings } = resolveConfig(
    [layer("/u/config.toml", PROVIDER), layer(join(proj, ".hey", "config.toml"), '[permission]\ndeny = ["read_file: **/.env", "grep: **/.env"]\n', true)],
    {},
    {},
  );
  const check = permissionCheck(settings.permission, "sh", { cwd: join(proj, "web"), home: homedir(), controls: [] });
  expect(check("read_file", { path: "../.env" })).toContain("matches deny entry `read_file: ");
  expect(check("read_file", { path: join(proj, ".env") })).toContain("blocked by permission rules");
  expect(check("grep", { pattern: "PIN", path: "../.env" })).toContain("blocked by permission rules");
  // a grep of the project runs, and passes its .env by
  expect(check("grep", { pattern: "PIN", path: ".." })).toBeUndefined();
  const passedBy = check.files?.("grep", { pattern: "PIN", path: ".." });
  expect(passedBy?.(join(proj, ".env"))).toBe(true);
  expect(passedBy?.(join(proj, "web", "index.html"))).toBe(false);
  expect(check("read_file", { path: "index.html" })).toBeUndefined();
});
