// The "no data for N s" watchdog on its own: it fires after the idle time of silence and only
// then, not while the consumer holds an item, and a caller's abort is not a firing. Each adapter
// running its streams under it: contract.test.ts.
//
// The clock is bun's fake one and the source hands out an item when the test says: with real
// sleeps (a 10 ms gap against a 60 ms idle time) a loaded machine could stretch a gap past the
// idle time and fire the watchdog where the test says it must not.
import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { startIdleWatchdog } from "../../src/providers/stream-guard.ts";
import { gate } from "../helpers/wait.ts";

/** A source whose next item comes when `give` is called, and that ends on `end`. */
function fed() {
  let next = gate();
  let ended = false;
  let count = 0;
  async function* items() {
    for (;;) {
      await next.passed;
      if (ended) return;
      next = gate();
      yield ++count;
    }
  }
  return {
    items: items(),
    give: () => next.open(),
    end: () => {
      ended = true;
      next.open();
    },
  };
}

describe("startIdleWatchdog", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("fires when the source is silent for the idle time, and only then", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 80);
    const source = fed();
    const items = dog.watch(source.items);
    for (const n of [1, 2, 3]) {
      const next = items.next();
      jest.advanceTimersByTime(79);
      source.give();
      expect(await next).toEqual({ value: n, done: false });
    }
    expect(dog.fired).toBe(false);
    const next = items.next();
    jest.advanceTimersByTime(79);
    expect(dog.fired).toBe(false);
    expect(dog.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(dog.fired).toBe(true);
    expect(dog.signal.reason).toMatchObject({ kind: "network", message: "no data from the model for 0.08 s" });
    source.end();
    expect(await next).toEqual({ value: undefined, done: true });
    dog.dispose();
  });

  test("time the consumer holds an item does not count as silence", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 60);
    const source = fed();
    const items = dog.watch(source.items);
    for (const n of [1, 2]) {
      const next = items.next();
      source.give();
      expect(await next).toEqual({ value: n, done: false });
      jest.advanceTimersByTime(1000); // the consumer holds the item
      expect(dog.fired).toBe(false);
    }
    const last = items.next();
    source.end();
    expect(await last).toEqual({ value: undefined, done: true });
    expect(dog.fired).toBe(false);
    dog.dispose();
  });

  test("touch (bytes the SDK drops) restarts the silence while waiting for an item", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 60);
    const source = fed();
    const items = dog.watch(source.items);
    for (const n of [1, 2]) {
      const next = items.next();
      for (let i = 0; i < 5; i++) {
        jest.advanceTimersByTime(50); // 250 ms in all, never 60 ms of silence
        dog.touch();
      }
      source.give();
      expect(await next).toEqual({ value: n, done: false });
    }
    expect(dog.fired).toBe(false);
    const next = items.next();
    jest.advanceTimersByTime(60);
    expect(dog.fired).toBe(true);
    source.end();
    await next;
    dog.dispose();
  });

  test("keep-alives alone end the try after KEEP_ALIVE_TIMEOUTS idle times, answerless only when no item came at all", async () => {
    for (const items of [0, 1]) {
      const dog = startIdleWatchdog(new AbortController().signal, 60);
      const source = fed();
      const watched = dog.watch(source.items);
      for (let n = 1; n <= items; n++) {
        const next = watched.next();
        source.give();
        expect(await next).toEqual({ value: n, done: false });
      }
      const next = watched.next();
      for (let i = 0; i < 5 * 6 - 1; i++) {
        jest.advanceTimersByTime(10);
        dog.touch();
      }
      expect(dog.fired).toBe(false);
      jest.advanceTimersByTime(10);
      expect(dog.fired).toBe(true);
      expect(dog.signal.reason).toMatchObject({
        kind: "network",
        silent: false,
        answerless: items === 0,
        message:
          items === 0
            ? "sent only keep-alives for 0.3 s and no event of the answer"
            : "sent only keep-alives for 0.3 s after part of the answer, and no further event",
      });
      source.end();
      await next;
      dog.dispose();
    }
  });

  test("a touch while the consumer holds an item does not start the timer", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 60);
    const source = fed();
    const items = dog.watch(source.items);
    for (const n of [1, 2]) {
      const next = items.next();
      source.give();
      expect(await next).toEqual({ value: n, done: false });
      dog.touch();
      jest.advanceTimersByTime(1000);
      expect(dog.fired).toBe(false);
    }
    source.end();
    await items.next();
    dog.dispose();
  });

  test("a caller abort passes through with its reason and is not a firing", () => {
    const parent = new AbortController();
    const dog = startIdleWatchdog(parent.signal, 10_000);
    parent.abort("bye");
    expect(dog.signal.aborted).toBe(true);
    expect(dog.signal.reason).toBe("bye");
    expect(dog.fired).toBe(false);
    dog.dispose();
  });

  test("dispose stops the timer and closes the request (a connection the server holds open), which is no idle stall", () => {
    const dog = startIdleWatchdog(new AbortController().signal, 20);
    dog.dispose();
    jest.advanceTimersByTime(1000);
    expect(dog.fired).toBe(false);
    expect(dog.signal.aborted).toBe(true);
    expect((dog.signal.reason as Error).name).toBe("AbortError");
  });
});
