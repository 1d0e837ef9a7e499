// The context passes keep what they worked out of each message and call (x119 #4: hey's CPU per
// request grew with the whole history while the request stayed bounded). What they keep must never
// show in a request: a long scripted session — repeated calls, failures purged, big outputs
// trimmed, pauses past the cache's lifetime — is prepared twice, once over one growing history (as
// hey runs: everything kept applies) and once from a fresh copy of the history for every request
// (nothing kept ever applies), and every request body must be the same, byte for byte.
import { expect, test } from "bun:test";
import { toRequest } from "../../src/providers/openai.ts";
import { adaptHistory } from "../../src/kernel/adapt-history.ts";
import type { Message } from "../../src/kernel/ir.ts";
import { buildContext, type BuiltView, type ContextView } from "../../src/context/view.ts";
import { longSession } from "../helpers/long-session.ts";
import { testPolicy } from "../helpers/settings.ts";

const body = (messages: readonly Message[]) =>
  JSON.stringify(toRequest({ system: "system", messages: adaptHistory(messages, { protocol: "openai", model: "m" }), tools: [] }, { model: "m" }));

for (const [name, opts] of [
  ["with handles, a budget the session passes", { compressTool: true, budgetTokens: 60_000 }],
  ["without handles, a small budget trimmed often", { compressTool: false, budgetTokens: 20_000 }],
] as const)
  test(`every request of a 300-step session is the same whether what the passes kept applies or not (${name})`, async () => {
    const kept = longSession(300, opts);
    const fresh = longSession(300, { ...opts, fresh: true });
    let requests = 0;
    let rewritten = 0;
    for (;;) {
      const a = await kept.next();
      const b = await fresh.next();
      if (!a || !b) {
        expect(a).toBe(b);
        break;
      }
      requests++;
      const sent = body(a);
      expect(sent).toBe(body(b));
      if (sent.includes("[pruned: duplicate call") && sent.includes("[arguments purged]")) rewritten++;
    }
    expect(requests).toBe(300);
    expect(kept.messages()).toBeGreaterThan(900);
    expect(rewritten).toBeGreaterThan(100); // the session exercises dedup and purge, not only plain requests
  });

test("the view built as the cache allows and the view of the whole history are one only when they are the same: the second build skipped is exact", async () => {
  const session = longSession(200, { compressTool: true, budgetTokens: 30_000 });
  const lengths: number[] = [];
  while (await session.next()) lengths.push(session.messages());
  const history = session.history();
  const policy = { ...testPolicy({ compressTool: true, purgeErrorsAfter: 4 }), budgetTokens: 30_000 };
  const input = (length: number, rewriteUpTo: number) => ({
    history: history.slice(0, length),
    summaries: [],
    policy,
    fixedTokens: 100,
    tokensPerChar: 0.25,
    rewriteUpTo,
  });
  const shown = (v: ContextView) => JSON.stringify({ ...v, hold: undefined });
  let skipped = 0;
  for (let k = 20; k < lengths.length; k += 3) {
    const length = lengths[k]!;
    for (const upTo of [lengths[k - 1]!, lengths[k - 10]!]) {
      const whole = input(length, length);
      const built: BuiltView = {};
      const first = buildContext({ ...whole, rewriteUpTo: upTo }, built);
      const second = buildContext(whole, built);
      if (second === first) skipped++;
      expect(shown(second)).toBe(shown(buildContext(whole)));
    }
  }
  expect(skipped).toBeGreaterThan(0); // and it is skipped at times (a duplicate-heavy session needs the second build mostly)
});
