// One module owns hey's signal listeners: SIGINT interrupts, SIGTERM and SIGHUP end the run; the
// listeners go when the run is over, except those asked to stay.
import { expect, test } from "bun:test";
import { ignoredIn, onSignals, SIGNAL_EXIT } from "../../src/ui/signals.ts";

const count = (name: "SIGINT" | "SIGTERM" | "SIGHUP" | "SIGQUIT") => process.listenerCount(name);

test("SIGINT interrupts; SIGTERM, SIGHUP and SIGQUIT end, named; off() removes them all", () => {
  const before = { SIGINT: count("SIGINT"), SIGTERM: count("SIGTERM"), SIGHUP: count("SIGHUP"), SIGQUIT: count("SIGQUIT") };
  const seen: string[] = [];
  const off = onSignals({ interrupt: () => seen.push("interrupt"), end: (name) => seen.push(`end ${name}`) });
  process.emit("SIGINT");
  process.emit("SIGTERM");
  process.emit("SIGHUP");
  process.emit("SIGQUIT");
  expect(seen).toEqual(["interrupt", "end SIGTERM", "end SIGHUP", "end SIGQUIT"]);
  off();
  expect({ SIGINT: count("SIGINT"), SIGTERM: count("SIGTERM"), SIGHUP: count("SIGHUP"), SIGQUIT: count("SIGQUIT") }).toEqual(before);
});

test("a kept listener stays (after a hang-up, the next SIGHUP must not kill hey before it has closed the session)", () => {
  const hup = count("SIGHUP");
  const seen: string[] = [];
  const off = onSignals({ interrupt: () => {}, end: (name) => seen.push(name) });
  off(["SIGHUP"]);
  process.emit("SIGHUP");
  expect(seen).toEqual(["SIGHUP"]);
  expect(count("SIGHUP")).toBe(hup + 1);
  process.off("SIGHUP", process.listeners("SIGHUP").at(-1)!); // the kept one, this test's own
  expect(count("SIGHUP")).toBe(hup);
});

test("exit codes are 128 + the signal's number", () => {
  expect(SIGNAL_EXIT).toEqual({ SIGTERM: 143, SIGHUP: 129, SIGQUIT: 131 });
});

test("the signals ignored at start are read from /proc/PID/status's SigIgn mask (bit n-1 is signal n)", () => {
  const status = (mask: string) => `Name:\they\nSigBlk:\t0000000000000000\nSigIgn:\t${mask}\nSigCgt:\t0000000100004a02\n`;
  expect([...ignoredIn(status("0000000000000000"))]).toEqual([]);
  expect([...ignoredIn(status("0000000000000001"))]).toEqual(["SIGHUP"]); // nohup
  expect([...ignoredIn(status("0000000000001002"))]).toEqual(["SIGINT"]); // a script's background job (SIGPIPE, 13, is no concern of hey's)
  expect([...ignoredIn(status("0000000000004007"))].sort()).toEqual(["SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM"]);
  expect([...ignoredIn("no such line")]).toEqual([]);
});
