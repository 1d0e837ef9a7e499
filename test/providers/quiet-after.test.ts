// quietAfter (providers/stream-guard.ts): once the last chunk an answer needs has come, a server
// that holds the connection open costs a short grace, not the idle timeout; a chunk that comes
// within the grace is passed on, and the source is closed either way.
import { expect, test } from "bun:test";
import { quietAfter } from "../../src/providers/stream-guard.ts";

/**
 * Gives `items` (each after `gapMs`), then waits forever, as an open connection does — an iterator
 * like the SDKs' streams, whose return() closes the request; `closed` says whether it was asked to.
 */
function source(items: { value: string; gapMs?: number }[]) {
  const state = { closed: false };
  let i = 0;
  const chunks: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      async next() {
        const item = items[i++];
        if (!item) return new Promise<IteratorResult<string>>(() => {}); // the server says nothing more and keeps the socket
        if (item.gapMs) await Bun.sleep(item.gapMs);
        return { value: item.value, done: false };
      },
      async return() {
        state.closed = true;
        return { value: undefined, done: true };
      },
    }),
  };
  return { chunks, state };
}

const collect = async (it: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const x of it) out.push(x);
  return out;
};

test("after the finish, a connection that stays open ends the chunks, and its source is asked to close", async () => {
  const { chunks, state } = source([{ value: "text" }, { value: "finish" }]);
  expect(await collect(quietAfter(chunks, (c) => c === "finish", 20))).toEqual(["text", "finish"]);
  expect(state.closed).toBe(true);
});

test("a chunk that comes within the grace (the usage) is passed on; before the finish nothing is cut", async () => {
  const { chunks } = source([{ value: "text", gapMs: 60 }, { value: "finish" }, { value: "usage", gapMs: 5 }]);
  expect(await collect(quietAfter(chunks, (c) => c === "finish", 1_000))).toEqual(["text", "finish", "usage"]);
});
