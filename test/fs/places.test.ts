// Every place of hey's comes from one function: the XDG variables when they are absolute paths,
// else the platform's defaults under the home directory.
import { expect, test } from "bun:test";
import { places } from "../../src/fs/places.ts";

test.each([
  ["XDG_CACHE_HOME wins", { XDG_CACHE_HOME: "/x/cache" }, "linux", "/x/cache/hey"],
  ["a relative XDG_CACHE_HOME is ignored (XDG spec)", { XDG_CACHE_HOME: "rel" }, "linux", "/home/u/.cache/hey"],
  ["linux", {}, "linux", "/home/u/.cache/hey"],
  ["macOS", {}, "darwin", "/home/u/Library/Caches/hey"],
  ["Windows", { LOCALAPPDATA: "/appdata" }, "win32", "/appdata/hey/cache"],
  ["Windows without LOCALAPPDATA", {}, "win32", "/home/u/AppData/Local/hey/cache"],
])("the cache dir: %s", (_name, env, platform, dir) => {
  const p = places(env, "/home/u", "/p", platform);
  expect(p.cacheDir).toBe(dir);
  expect(p.outputsDir).toBe(`${dir}/outputs`);
});

test.each([
  ["set", { XDG_STATE_HOME: "/x/state", XDG_CONFIG_HOME: "/x/config" }, "/x/state/hey", "/x/config/hey"],
  ["unset", {}, "/h/.local/state/hey", "/h/.config/hey"],
  ["empty", { XDG_STATE_HOME: "", XDG_CONFIG_HOME: "" }, "/h/.local/state/hey", "/h/.config/hey"],
  ["relative: ignored (XDG spec)", { XDG_STATE_HOME: "state", XDG_CONFIG_HOME: "./config" }, "/h/.local/state/hey", "/h/.config/hey"],
])("state and config dirs, XDG variables %s", (_name, env, state, config) => {
  const p = places(env, "/h", "/p", "linux");
  expect({ stateDir: p.stateDir, configDir: p.configDir }).toEqual({ stateDir: state, configDir: config });
});

test("the files in them, the project's config under the working directory", () => {
  expect(places({}, "/h", "/p", "linux")).toEqual({
    home: "/h",
    cwd: "/p",
    configDir: "/h/.config/hey",
    stateDir: "/h/.local/state/hey",
    cacheDir: "/h/.cache/hey",
    userConfig: "/h/.config/hey/config.toml",
    projectConfig: "/p/.hey/config.toml",
    trustFile: "/h/.config/hey/trust.json",
    approvalsFile: "/h/.local/state/hey/approvals.json",
    sessionsDir: "/h/.local/state/hey/sessions",
    historyFile: "/h/.local/state/hey/history",
    historiesDir: "/h/.local/state/hey/histories",
    logsDir: "/h/.local/state/hey/logs",
    outputsDir: "/h/.cache/hey/outputs",
  });
});
