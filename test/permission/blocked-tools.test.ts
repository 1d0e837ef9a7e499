// The start-up line for tools an allow list leaves no way to run: which tools it names, and the
// list it tells the user to write — never a tool the file already allows with an entry waiting for
// approval — and what compress is, which users do not know.
import { expect, test } from "bun:test";
import { blockedNotice, blockedTools, blockedWarning } from "../../src/permission/blocked-tools.ts";
import { ALLOWS_NOTHING, compileRules } from "../../src/permission/rules.ts";

const names = ["bash", "read_file", "write_file", "edit", "grep"];

test("blockedTools names the built-in tools an allow list leaves no way to run", () => {
  expect(blockedTools(compileRules({ allow: ["read_file", "bash: git *"], deny: [] }).rules, [...names, "compress"])).toEqual([
    "write_file",
    "edit",
    "grep",
    "compress",
  ]);
  expect(blockedTools(compileRules({ allow: ["*_file"], deny: [] }).rules, names)).toEqual(["bash", "edit", "grep"]);
  expect(blockedTools(compileRules({ allow: [], deny: ["bash: rm *"] }).rules, names)).toEqual([]);
});

test("blockedWarning names the blocked tools and the allow list that would let them run", () => {
  expect(blockedWarning(["bash: cargo *"], ["read_file", "grep"])).toBe(
    '[permission] allow leaves read_file, grep blocked; to let the agent use them, add their names: allow = ["bash: cargo *", "read_file", "grep"]',
  );
  expect(blockedWarning(["read_file"], ["edit", "compress"])).toBe(
    '[permission] allow leaves edit, compress blocked (compress: hey\'s tool that drops old tool output from the context; it reads and runs nothing); to let the agent use them, add their names: allow = ["read_file", "edit", "compress"]',
  );
  expect(blockedWarning(["a", "b", "c", "d"], ["edit"])).toBe(
    '[permission] allow leaves edit blocked; to let the agent use it, add its name: allow = ["a", "b", "c", …, "edit"]',
  );
});

test("blockedNotice leaves out the tools the file allows with entries waiting for approval, and names what the file does not allow", () => {
  const lists = { allow: ["read_file", "grep"], deny: [], pending: ["write_file", "edit", "bash: ls *"] };
  expect(blockedNotice(lists, "sh", names)).toBeUndefined();
  expect(blockedNotice({ ...lists, pending: ["write_file"] }, "sh", names)).toBe(
    '[permission] allow leaves bash, edit blocked; to let the agent use them, add their names: allow = ["read_file", "grep", "write_file", "bash", "edit"]',
  );
  expect(blockedNotice({ allow: [ALLOWS_NOTHING], deny: [], pending: ["read_file"] }, "sh", names)).toBe(
    '[permission] allow leaves bash, write_file, edit, grep blocked; to let the agent use them, add their names: allow = ["read_file", "bash", "write_file", "edit", "grep"]',
  );
  expect(blockedNotice({ allow: [], deny: ["bash: rm *"] }, "sh", names)).toBeUndefined();
});
