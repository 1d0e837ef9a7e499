// `hey doctor`'s waits on a server that takes requests and answers nothing: the model list has a
// short limit of its own, and when it got not a byte the answer is given up on sooner too, so a
// stuck server is reported in well under the minutes a run would spend on it.
import { afterAll, expect, test } from "bun:test";
import { probeEndpoint } from "../../src/doctor/probe.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

/** Accepts connections and reads what comes, never writing a byte back. */
const mute = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {}, open() {} } });
afterAll(() => mute.stop(true));

/** Answers the model list at once; the chat request never. */
const listsOnly = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) => (new URL(req.url).pathname.endsWith("/models") ? Response.json({ data: [{ id: "m" }] }) : new Promise<Response>(() => {})),
});
afterAll(() => listsOnly.stop(true));

function probe(baseUrl: string) {
  const base = defaultSettingsForTest();
  return probeEndpoint({
    settings: { ...base.provider, baseUrl },
    model: "m",
    fetch,
    idleTimeoutMs: 60_000,
    limits: { listMs: 200, afterSilentListMs: 300, answerMs: 900 },
  });
}

test("a silent model list is said as the wait it got, and the answer then gets the shorter limit", async () => {
  const url = `http://127.0.0.1:${mute.port}/v1`;
  const out = await probe(url);
  expect(out.models).toEqual({ ok: false, kind: "network", message: `no answer to GET ${url}/models in 0.2 s`, silent: true });
  expect(out.answer).toEqual({
    ok: false,
    kind: "network",
    message: `no answer from ${url} in 0.3 s (hey doctor's limit for one request once the model list got no answer either)`,
    silent: true,
  });
});

test("a model list that answered leaves the answer its full limit", async () => {
  const url = `http://127.0.0.1:${listsOnly.port}/v1`;
  const out = await probe(url);
  expect(out.models).toEqual({ ok: true, listed: ["m"] });
  expect(out.answer).toEqual({ ok: false, kind: "network", message: `no answer from ${url} in 0.9 s (hey doctor's limit for one request)`, silent: true });
});

/** Answers every chat request with a whole chat.completion, as a server that ignores stream: true does. */
const wholeAnswers = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) =>
    new URL(req.url).pathname.endsWith("/models")
      ? Response.json({ data: [{ id: "m" }] })
      : Response.json({
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: "Plain JSON answer." }, finish_reason: "stop" }],
        }),
});
afterAll(() => wholeAnswers.stop(true));

test("an endpoint that ignores stream: true answers (not 'not usable'), and the answer is said to come whole", async () => {
  const out = await probe(`http://127.0.0.1:${wholeAnswers.port}/v1`);
  expect(out.answer).toMatchObject({ ok: true, text: "Plain JSON answer.", whole: true });
});
