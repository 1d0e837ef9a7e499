// A server that keeps changing its tool list (x18: tools/list_changed every 200 ms, `tick` and
// `tock` in turn) printed `tools changed` twice a second for as long as hey ran: through a real
// connection to our fake server, what the user reads is one line, then one saying it keeps
// changing its tools, then nothing more however long it goes on.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, serverSettings, testManager } from "../helpers/mcp.ts";
import { until } from "../helpers/wait.ts";

setDefaultTimeout(60_000);

const dir = tempDir("hey-mcp-flap-");
afterEach(() => dir.remove());

test("a flapping tool list is said once, then once as a server that keeps changing its tools, then no more", async () => {
  const log = join(dir.path, "loop.log");
  const m = testManager([serverSettings("loop", { command: BUN, args: [FAKE_SERVER, "flap", "50"], env: { FAKE_LOG: log } })], {
    cacheDir: join(dir.path, "cache"),
  });
  try {
    await m.tools();
    const changes = () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => l === "change").length;
    await until(() => m.warnings.some((w) => w.includes("keeps changing")), "the line saying it keeps changing its tools", 30_000);
    const then = changes();
    await until(() => changes() >= then + 40, "40 more changes");
    expect(m.warnings).toHaveLength(2);
    expect(m.warnings[0]).toStartWith("MCP server loop's tools changed: ");
    expect(m.warnings[1]).toMatch(
      /^MCP server loop keeps changing its tools \(\d+ changes in 5 s\): hey says no more of its changes this run; \/mcp shows its tools \(1 now\)$/,
    );
  } finally {
    await m.manager.close();
  }
});
