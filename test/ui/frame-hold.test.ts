// Streamed text under the rows of what the user types (ui/frame-hold.ts): pieces in the frame after the rows were drawn wait for
// its end and go out together; anything else (another stream, nothing under the text, another event) goes out at once.
import { expect, test } from "bun:test";
import { frameHold, TYPED_FRAME_MS } from "../../src/ui/frame-hold.ts";

function held() {
  let t = 0;
  let timer: { at: number; run: () => void } | undefined;
  const out: string[] = [];
  const hold = frameHold<string>(
    (to, text, color, atFrame) => out.push(`${to}:${color ?? ""}:${text}${atFrame ? " (frame)" : ""}`),
    () => t,
    (ms, run) => {
      timer = { at: t + ms, run };
      return () => (timer = undefined);
    },
  );
  const advance = (ms: number) => {
    t += ms;
    if (timer && timer.at <= t) {
      const { run } = timer;
      timer = undefined;
      run();
    }
  };
  return { hold, out, advance };
}

test("pieces within a frame of the rows' drawing go out together at its end, once", () => {
  const { hold, out, advance } = held();
  hold.drawn();
  expect(hold.hold("answer", "a ", true)).toBe(true);
  advance(10);
  expect(hold.hold("answer", "b ", true)).toBe(true);
  expect(hold.hold("answer", "", true)).toBe(true); // a word still coming: nothing to write, nothing changes
  advance(TYPED_FRAME_MS - 11);
  expect(out).toEqual([]);
  advance(1);
  expect(out).toEqual(["answer::a b  (frame)"]);
  // a frame after the last drawing has passed: the next piece waits for nothing more than its tick
  hold.drawn();
  advance(TYPED_FRAME_MS * 3);
  hold.hold("answer", "c", true);
  advance(0);
  expect(out.at(-1)).toBe("answer::c (frame)");
});

test("nothing under the text, or another stream or style than what is held: not taken; release writes what is held at once", () => {
  const { hold, out, advance } = held();
  expect(hold.hold("answer", "a", false)).toBe(false);
  hold.drawn();
  hold.hold("info", "thinking ", true, "dim");
  expect(hold.hold("answer", "text", true)).toBe(false);
  expect(hold.hold("info", "text", true)).toBe(false);
  hold.release();
  expect(out).toEqual(["info:dim:thinking "]);
  advance(TYPED_FRAME_MS); // its timer went with it
  expect(out).toHaveLength(1);
  hold.release(); // nothing held: nothing written
  expect(out).toHaveLength(1);
});
