// What the model, the result and the history read when a run is aborted (kernel/tool.ts abortReason):
// the aborter's own words — a string, an Error's message, a timeout — and "interrupted by user" only
// for an abort that gives none.
import { expect, test } from "bun:test";
import { abortReason, INTERRUPTED, TIMED_OUT } from "../../src/kernel/tool.ts";

/** A signal aborted with `reason` (or with none). */
function abortedWith(...reason: unknown[]): AbortSignal {
  const ac = new AbortController();
  ac.abort(...reason);
  return ac.signal;
}

test.each([
  ["a string", abortedWith("terminated (SIGTERM)"), "terminated (SIGTERM)"],
  ["an Error: its message", abortedWith(new Error("the client went away")), "the client went away"],
  ["an Error of several lines: its first", abortedWith(new Error("deploy cancelled\n  at job 12")), "deploy cancelled"],
  ["a TimeoutError (AbortSignal.timeout)", abortedWith(new DOMException("The operation timed out.", "TimeoutError")), TIMED_OUT],
  ["abort() with no reason (an AbortError)", abortedWith(), INTERRUPTED],
  ["an Error with no message", abortedWith(new Error("")), INTERRUPTED],
  ["an empty string", abortedWith(""), INTERRUPTED],
  ["a number", abortedWith(42), INTERRUPTED],
])("aborted with %s", (_, signal, said) => {
  expect(abortReason(signal)).toBe(said);
});

test("AbortSignal.timeout says it timed out", async () => {
  const signal = AbortSignal.timeout(1);
  await new Promise((resolve) => signal.addEventListener("abort", resolve));
  expect(abortReason(signal)).toBe("timed out");
});
