// A server's whole command line written in `command` (`npx -y pkg`, Claude Desktop's habit) is not
// found as a program; hey says so with the split into `args` when the first word is a program it finds.
import { expect, test } from "bun:test";
import { missingCommand } from "../../src/mcp/stdio.ts";

const env = { PATH: process.env.PATH ?? "" };

test("a command line in command is said with its arguments moved to args", () => {
  expect(missingCommand("sh  -y pkg-x", env, undefined)).toBe(
    'command "sh  -y pkg-x" not found on PATH: command names the program alone, its arguments go in args: command = "sh", args = ["-y", "pkg-x"]',
  );
  // quoted words: the shell's to split, not guessed at
  expect(missingCommand("sh -c 'exit 0'", env, undefined)).toBe(
    `command "sh -c 'exit 0'" not found on PATH: command names the program alone, its arguments go in args, one string each: command = "sh", args = [...]`,
  );
});

test("a program that is not there is said as not found, with no advice to split it", () => {
  expect(missingCommand("no-such-mcp-cmd -y pkg", env, undefined)).toBe('command "no-such-mcp-cmd -y pkg" not found on PATH');
  expect(missingCommand("no-such-mcp-cmd", env, undefined)).toBe('command "no-such-mcp-cmd" not found on PATH');
  expect(missingCommand("sh", env, undefined)).toBeUndefined();
});
