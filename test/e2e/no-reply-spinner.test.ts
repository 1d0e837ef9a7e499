// An endpoint that takes the request and never answers: at a terminal, once 25 s passed with
// nothing of the reply, the spinner says so and names the host (before: `working… Ns` alone until
// [retry] idle_timeout_ms, 120 s, gave up on the try). Through dist/hey in tmux.
import { afterAll, afterEach, expect, test } from "bun:test";
import { startTerm, type Term } from "../helpers/tmux.ts";

/** Accepts connections and reads what comes, never writing a byte back. */
const mute = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
afterAll(() => mute.stop(true));
let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  term = undefined;
});

test("a silent endpoint: working… at first, then no reply yet from its host, the seconds counting", async () => {
  term = await startTerm({ args: ["--base-url", `http://127.0.0.1:${mute.port}/v1`, "-m", "m", "-p", "hi"], cols: 100 });
  await term.waitFor(/working… \d+s/);
  const screen = await term.waitFor(/no reply yet from 127\.0\.0\.1:\d+ \(\d+s\)/, { timeoutMs: 60_000 });
  const [, port, seconds] = screen.match(/no reply yet from 127\.0\.0\.1:(\d+) \((\d+)s\)/)!;
  expect(Number(port)).toBe(mute.port);
  expect(Number(seconds)).toBeGreaterThanOrEqual(25);
}, 120_000);
