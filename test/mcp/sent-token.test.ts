// The token a refusal is of, as the endpoint's answers tell it (sent-token.ts), and what the sign-in
// watch makes of it (sign-in-watch.ts): only an answer that refuses a token names one, so a busy
// server's 503 is never later taken for the refusal of a token it never judged (x139 #6).
import { expect, test } from "bun:test";
import { watchAnswers } from "../../src/mcp/sent-token.ts";
import { watchSignIns } from "../../src/mcp/sign-in-watch.ts";

const url = new URL("http://127.0.0.1:46160/mcp");

/** An endpoint whose next answer has `status`, watched as client.ts does. */
function endpoint() {
  let status = 200;
  const send = (async () => new Response("{}", { status, headers: status === 401 ? { "www-authenticate": "Bearer" } : {} })) as unknown as typeof fetch;
  const answers = watchAnswers(send, url, new AbortController().signal, false);
  const answer = async (code: number, token: string) => {
    status = code;
    await answers.fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  };
  return { answers, answer };
}

/** A shared sign-in file holding `access` (its stamp changes at each write). */
function signInFile(access: string) {
  let file = { stamp: 1, access };
  return {
    source: { stamp: () => String(file.stamp), read: () => ({ tokens: { access_token: file.access } }) },
    store: (next: string) => void (file = { stamp: file.stamp + 1, access: next }),
  };
}

test("a 503 with the old token, then a 200 with the new one: a refusal after them is not taken for the old token, and no restart is spent on the new", async () => {
  const { answers, answer } = endpoint();
  const file = signInFile("NEW-B");
  const watch = watchSignIns(file.source);
  await answer(503, "OLD-A");
  await answer(200, "NEW-B");
  expect(answers.sent).toBeUndefined();
  // refused without a refusing answer (an auth error in a 200 body, the SDK's own auth flow): what is stored, B, was refused
  watch.refused("remote", url.href, answers.sent);
  // before: sent was OLD-A, so B was taken for a new sign-in and the watch's one restart went on it
  expect(watch.fresh("remote", url.href)).toBe(false);
  file.store("NEW-C"); // a real new sign-in, from another hey
  expect(watch.fresh("remote", url.href)).toBe(true);
});

test("only a 401 or a 403 names the token refused; 400, 429, 500, 502 and 503 name none, and an OK answer clears it", async () => {
  for (const status of [400, 429, 500, 502, 503]) {
    const { answers, answer } = endpoint();
    await answer(status, "A");
    expect([status, answers.sent]).toEqual([status, undefined]);
  }
  for (const status of [401, 403]) {
    const { answers, answer } = endpoint();
    await answer(status, "A");
    await answer(503, "B"); // a busy answer after it does not undo it
    expect([status, answers.sent]).toEqual([status, "A"]);
    await answer(200, "B");
    expect([status, answers.sent]).toEqual([status, undefined]);
  }
});
