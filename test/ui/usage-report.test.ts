// `/usage` right after `hey -c`: before this run's first request, the last request is the one the
// session file recorded last, said to be the previous run's, not "none yet".
import { expect, test } from "bun:test";
import { emptyUsage } from "../../src/kernel/ir.ts";
import { createAgent } from "../../src/lib.ts";
import { usageReport } from "../../src/ui/usage-report.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";

const previous = { input: 30_000, output: 40, cacheRead: 27_000, cacheWrite: 0, reasoning: 0 };
const earlier = { usage: { ...emptyUsage(), input: 90_000, output: 200 }, requests: 3, messages: 12, loaded: 12, last: previous };

test("resumed, before a request of this run: the session's last request, marked as the previous run's", () => {
  const agent = createAgent({ provider: fakeProvider([]), output: { emit: () => {} } });
  const report = usageReport(agent, earlier);
  expect(report).toMatch(/^last request \(previous run\): 30,000 in \(27,000 cached = 90%\) · 40 out$/m);
  expect(report).not.toContain("none yet");
});

test("once this run has sent a request, the last request is that one", async () => {
  const agent = createAgent({ provider: fakeProvider([{ text: "hi", usage: { input: 70, output: 3 } }]), output: { emit: () => {} } });
  await agent.send("hello", new AbortController().signal);
  expect(usageReport(agent, earlier)).toMatch(/^last request: 70 in \(0 cached\) · 3 out$/m);
});

test("a session without any request yet: none yet", () => {
  const agent = createAgent({ provider: fakeProvider([]), output: { emit: () => {} } });
  expect(usageReport(agent, { ...earlier, last: undefined })).toMatch(/^last request: none yet$/m);
});
