// Which `${VAR}`s of a configuration are secrets: each one that is becomes `[redacted]` wherever hey
// shows its value and leaves the commands' environment; each one that is not (a host, a path, a
// version, a user name) stays readable and usable, as `pwd`, `$HOME` and home paths must.
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import { knownSecrets, redact, secretVariables, toolEnvironment } from "../../src/config/secrets.ts";

const VALUE = "value-of-the-var-1234";
const settingsWith = (data: Record<string, unknown>, env: Record<string, string>) => resolveConfig([{ source: "/c.toml", data }], env, {}).settings;
const provider = (fields: Record<string, unknown>) => ({ provider: { p: { base_url: "http://127.0.0.1:9/v1", models: ["m"], ...fields } } });
const mcp = (fields: Record<string, unknown>) => ({ mcp: { s: { command: "server", ...fields } } });
const remote = (url: string) => ({ mcp: { s: { url } } });

// each configuration uses the variable V
const SECRET: [string, Record<string, unknown>][] = [
  ["a provider's api_key", provider({ api_key: "${V}" })],
  ["an Authorization header after Bearer", provider({ headers: { Authorization: "Bearer ${V}" } })],
  ["all of an X-Api-Key header", provider({ headers: { "X-Api-Key": "${V}" } })],
  ["a key in two parts", provider({ headers: { "X-Api-Key": "${V}${W}" } })],
  ["all of a credential-named MCP env value", mcp({ env: { GITHUB_TOKEN: "${V}" } })],
  ["an MCP client_secret", { mcp: { s: { url: "https://mcp.example/mcp", client_id: "app", client_secret: "${V}" } } }],
  ["a URL's credential-named query value", provider({ base_url: "http://127.0.0.1:9/v1?api_key=${V}&x=1" })],
  ["an MCP url's camelCase key parameter", remote("https://mcp.exa.example/mcp?exaApiKey=${V}")],
  ["a URL's password", remote("https://bot:${V}@mcp.example/mcp")],
  ["an argument after --api-key", mcp({ args: ["--api-key", "${V}"] })],
  ["an argument after --token, with Bearer", mcp({ args: ["--token", "Bearer ${V}"] })],
  ["--token=", mcp({ args: ["--token=${V}"] })],
  ["an Authorization header as an argument", mcp({ args: ["--header", "Authorization: Bearer ${V}"] })],
  ["a header flag's value", mcp({ args: ["--header=X-Api-Key: ${V}"] })],
  ["a Cookie's session id", provider({ headers: { Cookie: "sid=${V}" } })],
  ["one part of a Bearer token", provider({ headers: { Authorization: "Bearer ${W}.${V}" } })],
  ["a credential-named env value's part", mcp({ env: { API_TOKEN: "tok-${V}" } })],
];
const NOT_SECRET: [string, Record<string, unknown>, string][] = [
  ["a base_url's host", provider({ base_url: "${V}/v1" }), "http://127.0.0.1:43210"],
  ["a base_url that is all of it", provider({ base_url: "${V}" }), "http://127.0.0.1:43210/v1"],
  ["an MCP url's base", remote("${V}/mcp"), "https://mcp.internal.example"],
  ["a URL's host and port", remote("https://${V}:8443/mcp"), "mcp.internal.example"],
  ["a URL's path segment", remote("https://api.example.com/${V}/mcp"), "v2beta-2026"],
  ["a URL's user name", remote("https://${V}:pw-12345678@mcp.example/mcp"), "ana-lovelace"],
  ["a non-credential query value", remote("https://mcp.example/mcp?region=${V}"), "europe-west4"],
  ["a path inside a credential-named env value", mcp({ env: { GOOGLE_APPLICATION_CREDENTIALS: "${V}/.config/gcloud/key.json" } }), "/home/ana"],
  ["a path after --token-file", mcp({ args: ["--token-file", "${V}/.tok"] }), "/home/ana"],
  ["the value of --token-file", mcp({ args: ["--token-file", "${V}"] }), "/home/ana/.tok"],
  ["--author=", mcp({ args: ["--author=${V}"] }), "ana-lovelace"],
  ["a path argument", mcp({ args: ["${V}/notes"] }), "/home/ana"],
  ["a header not named as a credential", provider({ headers: { "X-Team": "${V}" } }), "core-platform"],
  ["an env value named MAX_TOKENS", mcp({ env: { MAX_TOKENS: "${V}" } }), "409600000"],
  ["an env value named AUTHOR", mcp({ env: { AUTHOR: "${V}" } }), "ana-lovelace"],
  ["a PATH extended", mcp({ env: { PATH: "${V}:/opt/bin" } }), "/usr/local/bin"],
  ["a path starting a credential-named header", provider({ headers: { "X-Api-Key": "${V}/key" } }), "/home/ana"],
  ["part of a home path in a credential-named env value", mcp({ env: { GOOGLE_APPLICATION_CREDENTIALS: "~/${V}.json" } }), "ana-keys-2026"],
  ["a URL's path in a credential-named header", provider({ headers: { Authorization: "https://auth.example/${V}" } }), "v2beta-2026"],
];

test.each(SECRET)("secret: %s", (_, data) => {
  const env = { V: VALUE, W: "second-part-5678", PATH: "/bin" };
  const settings = settingsWith(data, env);
  expect(redact(`it is ${VALUE}.`, knownSecrets(settings, env))).toBe("it is [redacted].");
  expect(toolEnvironment(env, settings, [])).not.toHaveProperty("V");
});

test.each(NOT_SECRET)("not secret: %s", (_, data, value) => {
  const env = { V: value, PATH: "/bin" };
  const settings = settingsWith(data, env);
  expect(redact(`pwd: ${value}/proj`, knownSecrets(settings, env))).toBe(`pwd: ${value}/proj`);
  expect(toolEnvironment(env, settings, [])).toEqual(env);
});

test("a variable named as a credential is a secret wherever it is written; one holding a path says where a key is and stays", () => {
  const env = { ZAP_KEY: VALUE, GOOGLE_APPLICATION_CREDENTIALS: "/home/ana/.config/gcloud/key.json", PATH: "/bin" };
  const settings = settingsWith(
    {
      mcp: {
        zap: { url: "https://actions.example/mcp/${ZAP_KEY}/sse" },
        g: { command: "g", env: { GOOGLE_APPLICATION_CREDENTIALS: "${GOOGLE_APPLICATION_CREDENTIALS}" } },
      },
    },
    env,
  );
  const known = knownSecrets(settings, env);
  expect(known).toContain(VALUE);
  expect(known).not.toContain(env.GOOGLE_APPLICATION_CREDENTIALS);
  expect(toolEnvironment(env, settings, [])).toEqual({ GOOGLE_APPLICATION_CREDENTIALS: env.GOOGLE_APPLICATION_CREDENTIALS, PATH: "/bin" });
});

test("every ${VAR} in a credential header is a secret, the cookie's and each part of a Bearer token's, so none stays in the commands' environment", () => {
  const headers = { Cookie: "sid=${SID}", "X-Api-Key": "${K}", Authorization: "Bearer ${ORG}.${JWT}", "X-Key-File": "${HOME}/.key" };
  expect(secretVariables({ provider: { p: { headers } } }).sort()).toEqual(["JWT", "K", "ORG", "SID"]);
});
