// A server that keeps changing its tool list (tools/list_changed every 200 ms, two names in turn)
// printed two lines a second through the prompt (x18): the lines are folded, at most one per
// server every few seconds, saying how many changes each folds; a storm is said once, then no more.
import { expect, test } from "bun:test";
import { CHANGE_QUIET_MS, changeNotices } from "../../src/mcp/list-changes.ts";

function harness() {
  let now = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const lines: string[] = [];
  const say = changeNotices({ now: () => now, later: (fn, ms) => void timers.push({ at: now + ms, fn }), warn: (l) => void lines.push(l) });
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((x) => x.at <= now)) timers.splice(timers.indexOf(t), 1), t.fn();
  };
  return { say, advance, lines };
}

test("a list flapping every 200 ms: one line, then one saying it keeps changing, then silence", () => {
  const h = harness();
  let names = ["tick"];
  for (let i = 0; i < 200; i++) {
    const next = names[0] === "tick" ? ["tock"] : ["tick"];
    h.say("loop", names, next);
    names = next;
    h.advance(200);
  }
  expect(h.lines).toEqual([
    "MCP server loop's tools changed: + tock, − tick (1 tool now)",
    "MCP server loop keeps changing its tools (24 changes in 5 s): hey says no more of its changes this run; /mcp shows its tools (1 now)",
  ]);
});

test("a few changes close together: the first said at once, the rest in one line when the quiet time is over; another server is said apart", () => {
  const h = harness();
  h.say("gh", ["a"], ["a", "b"]);
  h.advance(1_000);
  h.say("gh", ["a", "b"], ["a", "b", "c"]);
  h.say("fs", ["x"], ["y"]);
  h.advance(500);
  h.say("gh", ["a", "b", "c"], ["a", "c", "d"]);
  expect(h.lines).toEqual(["MCP server gh's tools changed: + b (2 tools now)", "MCP server fs's tools changed: + y, − x (1 tool now)"]);
  h.advance(CHANGE_QUIET_MS);
  expect(h.lines.at(-1)).toBe("MCP server gh's tools changed: + c, + d, − b (2 changes since the last notice; 3 tools now)");
  h.advance(CHANGE_QUIET_MS);
  h.say("gh", ["a", "c", "d"], ["a"]);
  expect(h.lines.at(-1)).toBe("MCP server gh's tools changed: − c, − d (1 tool now)"); // quiet long enough: said at once
});

test("changes that come back to where they were are said as such", () => {
  const h = harness();
  h.say("s", ["a"], ["b"]);
  h.say("s", ["b"], ["a"]);
  h.say("s", ["a"], ["b"]);
  h.advance(CHANGE_QUIET_MS);
  expect(h.lines).toEqual([
    "MCP server s's tools changed: + b, − a (1 tool now)",
    "MCP server s's tools changed 2 times since the last notice, and are back to those (1 tool)",
  ]);
});
