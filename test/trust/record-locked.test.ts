// hey's first run owes the approvals record at the model's first answer (trust/approve.ts): when it
// cannot be written because another hey keeps it locked, the run ends with that error before the
// answer is used, and the request is not sent again (the next run would take the files as new).
import { expect, test } from "bun:test";
import { ConfigError } from "../../src/config/settings.ts";
import { ProviderError, type Provider } from "../../src/kernel/provider.ts";
import { recordingOnAnswer, recordOnAnswer, type ApprovalState } from "../../src/trust/approve.ts";

test("the first record kept locked by another hey: the answer's stream fails with the lock's message, final, nothing passed on", async () => {
  const message = "could not record approvals: /s/approvals.json is being written by another hey (pid 42) that has not finished in 5 s";
  const state: ApprovalState = { record: undefined, file: "/s/approvals.json" };
  await recordOnAnswer(state, async () => Promise.reject(new ConfigError(message)));
  let requests = 0;
  const provider: Provider = {
    protocol: "openai",
    model: "m",
    async *stream() {
      requests++;
      yield { type: "text", delta: "rm -rf" };
    },
  } as Provider;
  const passed: unknown[] = [];
  const err = await (async () => {
    for await (const event of recordingOnAnswer(provider, state).stream({} as never, new AbortController().signal)) passed.push(event);
  })().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  expect((err as ProviderError).message).toBe(message);
  expect((err as ProviderError).final).toBe(true); // not retried
  expect((err as ProviderError).kind).toBe("config"); // hey's own setup, not the network a CI script would retry
  expect(passed).toEqual([]);
  expect(requests).toBe(1);
});
