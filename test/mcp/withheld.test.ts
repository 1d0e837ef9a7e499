// The servers /mcp and `hey mcp` name as not started, and why (mcp/withheld.ts): a table not
// approved, one in a project's file that is not loaded; none that runs, none disabled, each once.
import { expect, test } from "bun:test";
import type { Guarded } from "../../src/config/guard.ts";
import { offerTools } from "../../src/mcp/offer.ts";
import { formatStatus } from "../../src/mcp/status.ts";
import { withheldServers } from "../../src/mcp/withheld.ts";

const guarded = (mcp: Record<string, string>): Guarded => ({ mcp });
const user = { source: "/h/.config/hey/config.toml", current: guarded({ a: "1", b: "2", c: "3" }), used: guarded({ a: "1", c: "0" }) };
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
      { name: "b", source: user.source, why: "not approved: hey asks again at the next start or /reload" },
      { name: "both", source: "/p/.hey/config.toml", why: "in an untrusted project's config: /trust, then /reload" },
      { name: "j", source: "/p/.mcp.json", why: "in an untrusted project's config: /trust, then /reload" },
    ],
  ],
  [
    "one-shot (hey mcp), an untrusted project",
    false,
    true,
    [
      { name: "b", source: user.source, why: "not approved yet: start hey to approve it" },
      { name: "both", source: "/p/.hey/config.toml", why: "in an untrusted project's config: hey trust (--approve for one run)" },
      { name: "j", source: "/p/.mcp.json", why: "in an untrusted project's config: hey trust (--approve for one run)" },
    ],
  ],
  [
    "REPL, trusted since start",
    true,
    false,
    [
      { name: "b", source: user.source, why: "not approved: hey asks again at the next start or /reload" },
      { name: "both", source: "/p/.hey/config.toml", why: "in the project's config, trusted after it was read: /reload loads it" },
      { name: "j", source: "/p/.mcp.json", why: "in the project's config, trusted after it was read: /reload loads it" },
    ],
  ],
])("%s: a runs (approved), c runs as approved before its change, off is disabled", (_, trusted, oneShot, expected) => {
  expect(withheldServers([user], ["a", "c"], { trusted, files }, oneShot)).toEqual(expected);
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
