// A deny entry that refuses a call is named with the file and line it is written in, whatever the
// call: a tool, a bash command (also by another name: `unlink` for `rm`), a path entry. With a
// project's list merged into the user's, that is how the user tells which file refused it.
import { expect, test } from "bun:test";
import { decide, compileRules } from "../../src/permission/rules.ts";

const AT = "~/.config/hey/config.toml:14";
const reason = (deny: string, tool: string, args: Record<string, unknown>) => {
  const { rules } = compileRules({ allow: [], deny: [deny], denyAt: { [deny]: AT } });
  const d = decide(tool, args, rules);
  return d.allowed ? "allowed" : d.reason;
};

test("a bash deny names its entry and where it is written, as a tool deny does", () => {
  expect(reason("write_file", "write_file", { path: "x", content: "" })).toContain(`matches deny entry \`write_file\` in ${AT}`);
  expect(reason("bash: rm *", "bash", { command: "rm -rf junk" })).toBe(
    `blocked by permission rules: \`rm -rf junk\` matches deny entry \`bash: rm *\` in ${AT}`,
  );
});

test("a command that does what a bash deny refuses by another name names the entry's file too", () => {
  expect(reason("bash: rm *", "bash", { command: "unlink junk" })).toContain(`deny entry \`bash: rm *\` in ${AT}`);
});

test("a deny entry with no known place is named alone", () => {
  const { rules } = compileRules({ allow: [], deny: ["bash: rm *"] });
  const d = decide("bash", { command: "rm junk" }, rules);
  expect(d.allowed ? "" : d.reason).toBe("blocked by permission rules: `rm junk` matches deny entry `bash: rm *`");
});
