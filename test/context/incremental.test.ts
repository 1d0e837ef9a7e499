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
import { longSession } from "../helpers/long-session.ts";

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
