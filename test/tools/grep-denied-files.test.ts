// A `grep: GLOB` deny entry (or an allow list of grep paths) keeps the files it names out of a
// grep over a tree, file by file, with the built-in walk and with ripgrep alike: the rest of the
// project is searched, the result says how many files were left out (never which, nor what they
// hold), and a grep naming a denied file itself is still refused. Run through the kernel's
// pipeline with the CLI's permission check and with an embedded agent's.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runToolCalls, type PermissionCheck } from "../../src/kernel/tool-calls.ts";
import { textOf } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { permissionCheck as embeddedCheck } from "../../src/embed-permission.ts";
import { permissionCheck as cliCheck } from "../../src/permission-check.ts";
import { bothGreps } from "../helpers/find-rg.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-grep-denied-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "app/config"), { recursive: true });
writeFileSync(join(dir, ".env"), "KEY=top-secret\n");
writeFileSync(join(dir, "app/config/.env"), "KEY=deep-secret\n");
writeFileSync(join(dir, "app/settings.ts"), "export const KEY = process.env.KEY;\n");
writeFileSync(join(dir, "app/config/real-name.txt"), "KEY=linked-secret\n");
symlinkSync("config/real-name.txt", join(dir, "app/.env")); // a link named as denied

async function grep(tool: Tool, permission: PermissionCheck, args: Record<string, unknown>) {
  const [message] = await runToolCalls([{ id: "c1", name: "grep", arguments: JSON.stringify(args) }], {
    tools: [tool],
    output: { emit: () => {} },
    permission,
    signal: new AbortController().signal,
    cwd: dir,
    parallel: false,
  });
  return { text: textOf(message!), error: message!.isError === true };
}

const lists = (deny: string[], allow: string[] = []) => ({ allow, deny, narrow: [], readOnly: [] }) as never;
const checks: [string, (deny: string[], allow?: string[]) => PermissionCheck][] = [
  ["the CLI's check", (deny, allow) => cliCheck(lists(deny, allow), "sh", { cwd: dir, home: dir, controls: [], cacheDir: join(dir, "no-cache") } as never)],
  ["an embedded agent's check", (deny, allow) => embeddedCheck({ deny, ...(allow ? { allow } : {}) }).within(dir)],
];

describe.each(await bothGreps())("%s search", (_, tool) => {
  describe.each(checks)("%s", (_, make) => {
    test("a grep of the project searches it all but the denied .env files, and says how many it left out", async () => {
      const { text, error } = await grep(tool, make(["grep: **/.env"]), { pattern: "KEY" });
      expect(error).toBe(false);
      expect(text).toContain("app/settings.ts:1: export const KEY = process.env.KEY;");
      expect(text).toContain("app/config/real-name.txt:1: KEY=linked-secret"); // the file itself is not named by the entry
      expect(text).not.toContain("top-secret");
      expect(text).not.toContain("deep-secret");
      expect(text).toContain("[2 files not searched: the permission rules keep them from grep]");
    });

    test("the count does not depend on what the denied files hold", async () => {
      const { text } = await grep(tool, make(["grep: **/.env"]), { pattern: "nothing-holds-this" });
      expect(text).toContain("no matches");
      expect(text).toContain("[2 files not searched: the permission rules keep them from grep]");
    });

    test("a grep naming a denied file, or a link named as one, is refused as before", async () => {
      for (const path of [".env", "app/config/.env", "app/.env"]) {
        const { text, error } = await grep(tool, make(["grep: **/.env"]), { pattern: "KEY", path });
        expect(error).toBe(true);
        expect(text).toContain("matches deny entry `grep: **/.env`");
      }
    });

    test("a deny entry naming a file through its real name keeps the link's target out, and no rule leaves everything in", async () => {
      const { text } = await grep(tool, make(["grep: app/config/real-name.txt"]), { pattern: "KEY" });
      expect(text).not.toContain("linked-secret");
      expect(text).toContain("top-secret");
      expect(text).toContain("[1 file not searched");
      const free = await grep(tool, make([]), { pattern: "KEY" });
      expect(free.text).not.toContain("not searched");
    });

    test("an allow list of grep paths searches a folder around them, only the files it allows", async () => {
      const { text, error } = await grep(tool, make([], ["grep: app/*.ts"]), { pattern: "KEY" });
      expect(error).toBe(false);
      expect(text).toContain("app/settings.ts:1:");
      expect(text).not.toContain("secret");
      expect(text).toContain("[3 files not searched");
    });
  });
});
