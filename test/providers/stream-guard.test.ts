// The "no data for N s" watchdog on its own: it fires after the idle time of silence and only
// then, not while the consumer holds an item, and a caller's abort is not a firing. Each adapter
// running its streams under it: contract.test.ts.
import { describe, expect, test } from "bun:test";
import { startIdleWatchdog } from "../../src/providers/stream-guard.ts";

describe("startIdleWatchdog", () => {
  async function* ticks(gapsMs: number[]) {
    for (const gap of gapsMs) {
      await Bun.sleep(gap);
      yield gap;
    }
  }

  test("fires when the source is silent for the idle time, and only then", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 80);
    const seen: number[] = [];
    for await (const gap of dog.watch(ticks([40, 40, 40]))) seen.push(gap);
    expect(seen).toEqual([40, 40, 40]);
    expect(dog.signal.aborted).toBe(false);
    await Bun.sleep(120);
    expect(dog.fired).toBe(true);
    expect(dog.signal.reason).toMatchObject({ kind: "network", message: "no data from the model for 0.08 s" });
    dog.dispose();
  });

  test("time the consumer holds an item does not count as silence", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 60);
    for await (const _ of dog.watch(ticks([10, 10]))) await Bun.sleep(120);
    expect(dog.fired).toBe(false);
    dog.dispose();
  });

  test("touch (bytes the SDK drops) restarts the silence while waiting for an item", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 60);
    const keepAlive = setInterval(() => dog.touch(), 20);
    const seen: number[] = [];
    for await (const gap of dog.watch(ticks([150, 150]))) seen.push(gap);
    clearInterval(keepAlive);
    expect(seen).toEqual([150, 150]);
    expect(dog.fired).toBe(false);
    await Bun.sleep(100);
    expect(dog.fired).toBe(true);
    dog.dispose();
  });

  test("a touch while the consumer holds an item does not start the timer", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 60);
    for await (const _ of dog.watch(ticks([10, 10]))) {
      dog.touch();
      await Bun.sleep(120);
    }
    expect(dog.fired).toBe(false);
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

  test("dispose stops the timer", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 20);
    dog.dispose();
    await Bun.sleep(50);
    expect(dog.fired).toBe(false);
    expect(dog.signal.aborted).toBe(false);
  });
});
