// When the Ctrl-Z tests (held-commands.test.ts, e2e/repl-stopped-command.test.ts,
// e2e/print-stop-alone.test.ts) count a command's group as stopped (test/helpers/held-group.ts):
// a dash that vforked a `sleep` whose child the SIGSTOP caught before its exec stays in `D`, not
// `T`, while the group is stopped. Seen in 55 of 300 stops of a dash loop running `sleep 0.001`.
import { expect, test } from "bun:test";
import { held, type Member } from "../helpers/held-group.ts";

const shell = (state: string): Member => ({ pid: 10, ppid: 1, state, guard: false });
const child = (state: string): Member => ({ pid: 11, ppid: 10, state, guard: false });
const guard = (state: string): Member => ({ pid: 12, ppid: 1, state, guard: true });

test.each([
  ["shell and its sleep stopped, the guard reading its pipe", [shell("T"), child("T"), guard("S")], true],
  ["the shell stopped, its sleep ended", [shell("T"), guard("S")], true],
  ["the shell held by the kernel until its vforked child, stopped before its exec, execs", [shell("D"), child("T"), guard("S")], true],
  ["the shell waiting on a vforked child that still runs", [shell("D"), child("R"), guard("S")], false],
  ["the shell in D with no child: a write that may still land", [shell("D"), guard("S")], false],
  ["the shell still sleeping", [shell("S"), child("T"), guard("S")], false],
  ["its sleep still running", [shell("T"), child("S"), guard("S")], false],
  ["nothing but the guard left", [guard("S")], false],
  ["traced, not stopped by a signal", [shell("t"), guard("S")], false],
] as const)("%s: held %p", (_, members, expected) => {
  expect(held([...members])).toBe(expected);
});
