// `hey upgrade` goes by the user config as a run does, with what the user approved of it: a
// `[proxy] url` not approved yet (the agent may have written it) holds the downloads back with the
// run's own message, and a `[network] ca_file` not approved yet is not used; an approved one, or any
// on hey's first run (no approvals record), is. The proxy here is a loopback server that answers
// every request itself; the release host is a name that is never looked up.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptyApprovals, formatApprovals } from "../../src/config/approvals.ts";
import { guardedOf } from "../../src/config/guard.ts";
import { checkLayer } from "../../src/config/schema.ts";
import { upgradeFetch } from "../../src/upgrade/net.ts";
import { runHey, tempDir } from "../helpers/e2e.ts";

const RELEASE = "http://releases.example/hey";

let proxy: ReturnType<typeof Bun.serve>;
/** what reached the proxy: the request lines' targets */
const seen: string[] = [];
beforeAll(() => {
  proxy = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      seen.push(req.url);
      return new Response("not found", { status: 404 });
    },
  });
});
afterAll(() => proxy.stop(true));

let home: ReturnType<typeof tempDir>;
let env: Record<string, string>;
beforeEach(() => {
  home = tempDir("hey-upgrade-proxy-");
  env = { HOME: home.path, XDG_CONFIG_HOME: join(home.path, "config"), XDG_STATE_HOME: join(home.path, "state"), XDG_CACHE_HOME: join(home.path, "cache") };
  mkdirSync(join(home.path, "config", "hey"), { recursive: true });
  mkdirSync(join(home.path, "state", "hey"), { recursive: true });
  seen.length = 0;
});
afterEach(() => home.remove());

const userConfig = () => join(home.path, "config", "hey", "config.toml");

/** Writes the user config; `approved`: the approvals record says yes to it as it is; "none": a record that approves nothing of it; "no record": hey's first run. */
function configure(toml: string, approved: "as written" | "none" | "no record") {
  writeFileSync(userConfig(), toml);
  if (approved === "no record") return;
  const record = emptyApprovals();
  if (approved === "as written")
    record.configs[realpathSync(userConfig())] = guardedOf(checkLayer(userConfig(), Bun.TOML.parse(toml) as Record<string, unknown>, toml).data);
  writeFileSync(join(home.path, "state", "hey", "approvals.json"), formatApprovals(record), { mode: 0o600 });
}

const proxied = () => `[proxy]\nurl = "http://127.0.0.1:${proxy.port}"\n`;
const warnings: string[] = [];
const download = () => upgradeFetch(env, (w) => warnings.push(w))(`${RELEASE}/SHA256SUMS`);

describe("the proxy of hey upgrade", () => {
  test("a [proxy] url not approved yet: no request goes out, through it or another way, and the error says why, as a run's does", async () => {
    configure(proxied(), "none");
    await expect(download()).rejects.toMatchObject({
      kind: "proxy_unapproved",
      message: `[proxy] url = "http://127.0.0.1:${proxy.port}" in ${userConfig()}:2 is not approved yet, so no request to releases.example goes out, neither directly nor through another proxy (the agent can write that file): say yes to it at the interactive prompt, which asks at start-up and at /reload`,
    });
    expect(seen).toEqual([]);
  });

  test.each(["as written", "no record"] as const)("a [proxy] url approved (%s) carries the download", async (approved) => {
    configure(proxied(), approved);
    expect((await download()).status).toBe(404);
    expect(seen).toEqual([`${RELEASE}/SHA256SUMS`]);
  });

  test("`hey upgrade` refuses, naming the proxy that waits for approval, and changes nothing", async () => {
    configure(proxied(), "none");
    const run = await runHey(["upgrade", "--check"], { env: { ...env, HEY_RELEASE_URL: RELEASE, HEY_INSECURE: "1" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `hey upgrade: could not download ${RELEASE}/SHA256SUMS: [proxy] url = "http://127.0.0.1:${proxy.port}" in ${userConfig()}:2 is not approved yet`,
    );
    expect(seen).toEqual([]);
  });
});

describe("the CA file of hey upgrade", () => {
  const missingCa = () => `[network]\nca_file = "${join(home.path, "gone.pem")}"\n`;

  test("a [network] ca_file not approved yet is not used: not even read", () => {
    configure(missingCa(), "none");
    expect(() => upgradeFetch(env, () => {})).not.toThrow();
  });

  test("a certificate error while a [network] ca_file waits for approval says it is there but not used yet", async () => {
    const tls = join(import.meta.dir, "..", "fixtures", "tls");
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      tls: { cert: readFileSync(join(tls, "model.test.crt"), "utf8"), key: readFileSync(join(tls, "model.test.key"), "utf8") },
      fetch: () => new Response("sums"),
    });
    try {
      const ca = join(tls, "model.test.crt");
      configure(`[network]\nca_file = "${ca}"\n`, "none");
      await expect(upgradeFetch(env, () => {})(`https://127.0.0.1:${server.port}/SHA256SUMS`)).rejects.toThrow(
        `— [network] ca_file = "${ca}" in ${userConfig()} is set but not approved yet, so it is not used: start \`hey\` at a terminal and answer yes to use it`,
      );
    } finally {
      server.stop(true);
    }
  });

  test("an approved [network] ca_file is used: one that cannot be read stops the upgrade, naming it", () => {
    configure(missingCa(), "as written");
    expect(() => upgradeFetch(env, () => {})).toThrow(`[network] ca_file in ${userConfig()}: cannot read ${join(home.path, "gone.pem")} (ENOENT)`);
  });
});
