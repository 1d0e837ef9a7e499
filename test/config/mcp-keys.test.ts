// The [mcp.NAME] keys of issue 27: tool selection (with Codex's spellings) and a client
// registered by hand for OAuth; their checks and warnings.
import TOML from "@iarna/toml";
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import { knownSecrets } from "../../src/config/secrets.ts";

const resolve = (toml: string) => resolveConfig([{ source: "/c.toml", text: toml, data: TOML.parse(toml) }], {}, {});

test("tools / exclude_tools, and Codex's enabled_tools / disabled_tools read as the same keys", () => {
  const r = resolve(
    '[mcp.a]\ncommand = "x"\ntools = ["echo", "get-*"]\nexclude_tools = ["get-env"]\n[mcp.b]\ncommand = "y"\nenabled_tools = ["one"]\ndisabled_tools = ["two"]\n[mcp.c]\ncommand = "z"',
  );
  const [a, b, c] = r.settings.mcp.servers;
  expect(a).toMatchObject({ tools: ["echo", "get-*"], excludeTools: ["get-env"] });
  expect(b).toMatchObject({ tools: ["one"], excludeTools: ["two"] });
  expect(c!.tools).toBeUndefined(); // all of them
  expect(c!.excludeTools).toBeUndefined();
  expect(r.warnings).toEqual([]);
});

test("both spellings at once: their union, with a warning naming the line", () => {
  const r = resolve('[mcp.a]\ncommand = "x"\ntools = ["echo"]\nenabled_tools = ["sum", "echo"]');
  expect(r.settings.mcp.servers[0]!.tools).toEqual(["echo", "sum"]);
  expect(r.warnings).toEqual(["/c.toml:4: [mcp.a] enabled_tools means the same as tools; both are read (keep one)"]);
});

test("a wrong type is an error naming the key", () => {
  expect(() => resolve('[mcp.a]\ncommand = "x"\ntools = "echo"')).toThrow('/c.toml:3: [mcp.a] tools must be an array of strings, got "echo"');
});

test("client_id / client_secret: for remote servers; the secret is one hey redacts", () => {
  const r = resolve(
    '[mcp.gh]\nurl = "https://api.example/mcp"\nclient_id = "Iv1.abc"\nclient_secret = "s3cret-value-123"\n[mcp.local]\ncommand = "x"\nclient_id = "nope"',
  );
  expect(r.settings.mcp.servers[0]!.oauthClient).toEqual({ id: "Iv1.abc", secret: "s3cret-value-123" });
  expect(r.settings.mcp.servers[1]!.oauthClient).toBeUndefined();
  expect(r.warnings).toEqual(["/c.toml:7: [mcp.local] client_id is only used with url (ignored)"]);
  expect(knownSecrets(r.settings, {})).toContain("s3cret-value-123");
  const lone = resolve('[mcp.gh]\nurl = "https://api.example/mcp"\nclient_secret = "s3cret-value-123"');
  expect(lone.settings.mcp.servers[0]!.oauthClient).toBeUndefined();
  expect(lone.warnings).toEqual(["/c.toml:3: [mcp.gh] client_secret is used only with client_id (ignored)"]);
});
