// Preloaded by bun test (bunfig.toml): the proxy variables of the shell that started the tests are
// dropped. Bun's own fetch honours HTTP_PROXY, http_proxy and ALL_PROXY for every address, loopback
// too, and many tests hand an adapter no fetch of hey's (hey's own, net/fetch.ts, always goes direct
// to loopback), so on a machine with a proxy set ~325 of them sent their loopback requests to it
// and failed. A test about proxies sets the variables it means, on the process it starts.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

const PROXY_VARIABLES = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"];

for (const name of PROXY_VARIABLES) {
  delete process.env[name];
  delete process.env[name.toLowerCase()];
}

// The tests' programs get a HOME of their own, removed when the tests end: the bash tool's commands
// run with the test process's environment, and vim wrote ~/.viminfo, git its global config, into
// the real HOME of whoever ran the tests. (Bun's os.homedir() keeps the HOME it started with: code
// that asks it still gets the real one.) npm's cache, which test/embed-pack.test.ts installs from
// offline, and a rustup toolchain's homes stay where they are.
const realHome = homedir();
const testHome = mkdtempSync(join(tmpdir(), "hey-tests-home-"));
process.env.npm_config_cache ??= join(realHome, ".npm");
for (const [name, dir] of [
  ["RUSTUP_HOME", ".rustup"],
  ["CARGO_HOME", ".cargo"],
] as const)
  if (!process.env[name] && existsSync(join(realHome, dir))) process.env[name] = join(realHome, dir);
process.env.HOME = testHome;
// the places hey and the tools find from HOME, unless the machine set them elsewhere
for (const name of ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GNUPGHOME"])
  delete process.env[name];
process.on("exit", () => rmSync(testHome, { recursive: true, force: true }));
