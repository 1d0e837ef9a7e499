// The servers /mcp and `hey mcp` name as not started, and why (mcp/withheld.ts): a table not
// approved, one in a project's file that is not loaded; none that runs, none disabled, each once.
import { expect, test } from "bun:test";
import type { Guarded } from "../../src/config/guard.ts";
import { offerTools } from "../../src/mcp/offer.ts";
import { formatStatus } from "../../src/mcp/status.ts";
import { RELOAD_NOTE_MAX_CHARS } from "../../src/config/reload.ts";
import { withheldNote, withheldServers, withheldTool } from "../../src/mcp/withheld.ts";

const guarded = (mcp: Record<string, string>): Guarded => ({ mcp });
const user = { source: "/h/.config/hey/config.toml", current: guarded({ a: "1", b: "2", c: "3" }), used: guarded({ a: "1", c: "0" }), kept: [] };
const files = [
  { source: "/p/.mcp.json", data: { mcp: { servers: { both: { command: "x" }, j: { command: "x" } } } } },
  { source: "/p/.hey/config.toml", data: { mcp: { servers: { both: { command: "y" }, off: { command: "z", enabled: false }, a: { command: "x" } } } } },
];

test.each([
  [
    "REPL, an untrusted project",
    false,
    false,
    [
      { name: "b", source: user.source, why: "not approved: hey asks again at the next start or /reload", waits: "approval" as const },
      { name: "both", source: "/p/.hey/config.toml", why: "in an untrusted project's config: /trust, then /reload", waits: "trust" as const },
      { name: "j", source: "/p/.mcp.json", why: "in an untrusted project's config: /trust, then /reload", waits: "trust" as const },
    ],
  ],
  [
    "one-shot (hey mcp), an untrusted project",
    false,
    true,
    [
      { name: "b", source: user.source, why: "not approved yet: start hey to approve it", waits: "approval" as const },
      { name: "both", source: "/p/.hey/config.toml", why: "in an untrusted project's config: hey trust (--approve for one run)", waits: "trust" as const },
      { name: "j", source: "/p/.mcp.json", why: "in an untrusted project's config: hey trust (--approve for one run)", waits: "trust" as const },
    ],
  ],
  [
    "REPL, trusted since start",
    true,
    false,
    [
      { name: "b", source: user.source, why: "not approved: hey asks again at the next start or /reload", waits: "approval" as const },
      { name: "both", source: "/p/.hey/config.toml", why: "in the project's config, trusted after it was read: /reload loads it", waits: "reload" as const },
      { name: "j", source: "/p/.mcp.json", why: "in the project's config, trusted after it was read: /reload loads it", waits: "reload" as const },
    ],
  ],
])("%s: a runs (approved), c runs as approved before its change, off is disabled", (_, trusted, oneShot, expected) => {
  expect(withheldServers([user], ["a", "c"], { trusted, files }, oneShot)).toEqual(expected);
});

test("a changed table left out is not started at start-up (only its fingerprint was approved), and is not named once /reload keeps the old one running", () => {
  const changed = { ...user, kept: ["c"] };
  expect(withheldServers([changed], ["a"], undefined, true)).toEqual([
    { name: "b", source: user.source, why: "not approved yet: start hey to approve it", waits: "approval" },
    {
      name: "c",
      source: user.source,
      why: "changed, not approved yet: start hey to approve it (hey keeps only a fingerprint of the approved table)",
      waits: "approval",
    },
  ]);
  expect(withheldServers([changed], ["a", "c"], undefined, false).map((w) => w.name)).toEqual(["b"]);
});

test("/mcp lists them after the running servers, and says there are none only when there are none", () => {
  const none = offerTools([], () => false);
  const withheld = withheldServers([user], ["a", "c"], undefined, true);
  expect(formatStatus([], none, false, undefined, [], withheld)).toBe(
    `b: not started · not approved yet: start hey to approve it\n  in ${user.source}\nMCP tools in every request: 0, ~0 tokens`,
  );
  expect(formatStatus([], none, false)).toStartWith("no MCP servers in use");
  expect(formatStatus([], none, true, undefined, [], withheld)).toBe("MCP is off in this run (--no-mcp)");
});

test.each([
  [
    "one-shot: a server not approved",
    true,
    [{ name: "newsrv", source: "/h/.config/hey/config.toml", why: "not approved yet: start hey to approve it", waits: "approval" as const }],
    "[hey: MCP server newsrv (~/.config/hey/config.toml) is not started: the user has not approved it yet; they approve it by starting hey at a terminal. Do not change its config for this.]",
  ],
  [
    "REPL: one not approved, one in an untrusted project",
    false,
    [
      { name: "b", source: "/h/.config/hey/config.toml", why: "", waits: "approval" as const },
      { name: "j", source: "/p/.mcp.json", why: "", waits: "trust" as const },
    ],
    "[hey: MCP server b (~/.config/hey/config.toml) is not started: the user has not approved it; hey asks them again at /reload or the next start. " +
      "MCP server j (/p/.mcp.json) is not started: the project is not trusted; the user trusts it with /trust, then /reload. Do not change their configs for this.]",
  ],
])("the first request's note names each withheld server, where, and what the user does: %s", (_, oneShot, withheld, note) => {
  expect(withheldNote(withheld, oneShot, (p) => p.replace(/^\/h\//, "~/"))).toBe(note);
});

test("a project with dozens of servers: the note stays within the bound of a /reload's", () => {
  const many = Array.from({ length: 60 }, (_, i) => ({ name: `server${i}`, source: "/p/.mcp.json", why: "", waits: "trust" as const }));
  const note = withheldNote(many, true, (p) => p)!;
  expect(note.length).toBe(RELOAD_NOTE_MAX_CHARS);
  expect(note).toStartWith("[hey: MCP server server0 (/p/.mcp.json) is not started");
  expect(note).toEndWith("…]");
});

test("no server withheld: no note, and an unknown tool stays the kernel's", () => {
  expect(withheldNote([], true, (p) => p)).toBeUndefined();
  expect(withheldTool("say_hi", [], async () => [])).toBeUndefined();
});

test("a call to an unknown tool while a server is withheld names the server and why", async () => {
  const withheld = withheldServers([user], ["a", "c"], undefined, true);
  const tool = withheldTool("say_hi", withheld, async () => [{ name: "bash", description: "", parameters: {}, run: async () => ({ output: "" }) }]);
  const result = await tool!.run({}, { signal: new AbortController().signal, cwd: "/" });
  expect(result).toEqual({
    output: 'unknown tool "say_hi"; available: bash. MCP server b (not approved yet: start hey to approve it) is not started, so its tools are unknown.',
    isError: true,
  });
});
