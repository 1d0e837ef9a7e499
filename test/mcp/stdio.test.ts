// A local server's environment (STYLE "Processes", SPEC §14): a short allow-list of hey's own plus
// the server's configured `env`, never the user's API keys — checked with server-everything's
// get-env tool, which prints the environment it runs with.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { childEnv, ENV_ALLOW } from "../../src/mcp/stdio.ts";
import { tempDir } from "../helpers/e2e.ts";
import { EVERYTHING_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";

setDefaultTimeout(60_000);

const parent = {
  PATH: "/usr/bin",
  HOME: "/home/ana",
  LANG: "C.UTF-8",
  OPENAI_API_KEY: "sk-secret",
  AWS_SECRET_ACCESS_KEY: "aws",
  HEY_API_KEY: "k",
  HTTPS_PROXY: "http://u:p@proxy:1",
};

test("childEnv: the allow-listed variables hey has, then the configured ones (which win)", () => {
  expect(childEnv(parent, { DATABASE_URL: "pg://db", LANG: "de_DE.UTF-8" })).toEqual({
    PATH: "/usr/bin",
    HOME: "/home/ana",
    LANG: "de_DE.UTF-8",
    DATABASE_URL: "pg://db",
  });
  expect(ENV_ALLOW).not.toContain("OPENAI_API_KEY");
});

test("childEnv on Windows: the variables its programs need (TEMP, PATHEXT, COMSPEC…), never a key", () => {
  const windows = {
    TEMP: "C:\\Users\\ana\\AppData\\Local\\Temp",
    TMP: "C:\\Users\\ana\\AppData\\Local\\Temp",
    SYSTEMROOT: "C:\\Windows",
    SYSTEMDRIVE: "C:",
    COMSPEC: "C:\\Windows\\system32\\cmd.exe",
    PATHEXT: ".COM;.EXE;.BAT;.CMD",
    APPDATA: "C:\\Users\\ana\\AppData\\Roaming",
    USERPROFILE: "C:\\Users\\ana",
    USERNAME: "ana",
    PROGRAMFILES: "C:\\Program Files",
    OPENAI_API_KEY: "sk-secret",
  };
  const env = childEnv(windows, {});
  for (const key of ["TEMP", "TMP", "SYSTEMROOT", "SYSTEMDRIVE", "COMSPEC", "PATHEXT", "APPDATA", "USERPROFILE", "USERNAME", "PROGRAMFILES"])
    expect([key, env[key]]).toEqual([key, windows[key as keyof typeof windows]]);
  expect(Object.values(env)).not.toContain("sk-secret");
});

let cache: ReturnType<typeof tempDir> | undefined;
let m: TestManager | undefined;
afterEach(async () => {
  await m?.manager.close();
  cache?.remove();
});

test("the server sees no API key of hey's environment, and its configured env", async () => {
  cache = tempDir("hey-mcp-cache-");
  const env = { ...parent, PATH: process.env.PATH, HOME: process.env.HOME };
  m = testManager([serverSettings("ev", { command: "node", args: [EVERYTHING_SERVER, "stdio"], env: { MY_SETTING: "on" } })], { cacheDir: cache.path, env });
  const seen = JSON.parse((await m.call("get-env")).output) as Record<string, string>;
  expect(seen.MY_SETTING).toBe("on");
  expect(seen.LANG).toBe("C.UTF-8");
  for (const secret of ["OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "HEY_API_KEY", "HTTPS_PROXY"]) expect(seen[secret]).toBeUndefined();
});
