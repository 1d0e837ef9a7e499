// A refusal by an allow list tells the user where to change it: the file whose list refused the
// call (under the home directory as `~/…`), and the entry to add there; what the list allows (`no bash entry` where it has none); and,
// when an entry waiting for the user's approval would allow the call, that entry and what to do.
import { expect, test } from "bun:test";
import { permissionCheck } from "../../src/permission-check.ts";
import { ALLOWS_NOTHING } from "../../src/permission/rules.ts";

type Lists = Parameters<typeof permissionCheck>[0];
const check = (lists: Partial<Lists>, tool: string, args: Record<string, unknown>) =>
  permissionCheck({ allow: [], deny: [], narrow: [], ...lists }, "sh", { cwd: "/p", home: "/h", controls: [] })(tool, args);
const USER = "/h/.config/hey/config.toml";
const SHOWN = "~/.config/hey/config.toml"; // as the user writes it

test("names the file of the list that refused and the entry to add there", () => {
  expect(check({ allow: ["bash: git *"], file: USER }, "bash", { command: "npm install left-pad" })).toBe(
    `blocked by permission rules: \`npm install left-pad\` matches no allow entry in ~/.config/hey/config.toml: add "bash: npm install *" there (allowed: bash: git *)`,
  );
  expect(check({ allow: ["read_file"], file: USER }, "write_file", { path: "a", content: "" })).toBe(
    `blocked by permission rules: tool \`write_file\` matches no allow entry in ~/.config/hey/config.toml: add "write_file" there (allowed: read_file)`,
  );
});

test("a list without a bash entry says so, not `allowed: none`", () => {
  const reason = check({ allow: ["read_file", "grep"], file: "/tmp/ro.toml" }, "bash", { command: "git status" });
  expect(reason).toBe(
    'blocked by permission rules: `git status` matches no allow entry in /tmp/ro.toml: add "bash: git status *" there (no bash entry; allowed: read_file, grep)',
  );
});

test("a trusted project's list that refuses is named, not the user's that allows", () => {
  const project = "/p/.hey/config.toml";
  const reason = check({ allow: ["bash: ls *"], file: USER, narrow: [{ source: project, allow: ["bash: npm *", "bash: git *"] }] }, "bash", {
    command: "ls -la",
  });
  expect(reason).toBe(
    `blocked by permission rules: \`ls -la\` matches no allow entry in ${project}: add "bash: ls *" there (allowed: bash: npm *, bash: git *)`,
  );
});

test("a call that an allow entry waiting for approval would allow says which entry, where, and what to do", () => {
  const waiting = { [USER]: ["write_file", "edit", "bash: ls *"] };
  expect(check({ allow: ["read_file", "grep"], file: USER, waiting }, "write_file", { path: "a", content: "" })).toBe(
    `blocked by permission rules: tool \`write_file\`: allow entry "write_file" in ${SHOWN} waits for your approval (hey asks at a terminal start or /reload)`,
  );
  expect(check({ allow: ["read_file", "grep"], file: USER, waiting }, "bash", { command: "ls -la" })).toContain(
    `\`ls -la\`: allow entry "bash: ls *" in ${SHOWN} waits for your approval`,
  );
  // what no waiting entry allows is refused as before, with the entry to add
  expect(check({ allow: ["read_file", "grep"], file: USER, waiting }, "bash", { command: "rm x" })).toContain(`in ${SHOWN}: add "bash: rm x $" there`);
  // all approved entries removed, others added: nothing runs until approved, and the refusal says why
  expect(check({ allow: [ALLOWS_NOTHING], file: USER, waiting: { [USER]: ["bash: head *"] } }, "bash", { command: "head -1 x" })).toContain(
    `allow entry "bash: head *" in ${SHOWN} waits for your approval`,
  );
});

// x56: the waiting entries were joined with ", " and split again to quote them
test('a waiting entry holding ", " is named whole; several waiting entries are each quoted', () => {
  const entry = 'bash: npm test * > "out, 1.log"';
  expect(check({ allow: ["read_file"], file: USER, waiting: { [USER]: [entry] } }, "bash", { command: 'npm test > "out, 1.log"' })).toContain(
    `: allow entry ${JSON.stringify(entry)} in ${SHOWN} waits for your approval`,
  );
  // only both together allow it: both named, each quoted once
  const both = check({ allow: ["read_file"], file: USER, waiting: { [USER]: ["bash: ls *", "bash: wc *"] } }, "bash", { command: "ls | wc -l" });
  expect(both).toContain(`: allow entries "bash: ls *", "bash: wc *" in ${SHOWN} wait for your approval`);
});
