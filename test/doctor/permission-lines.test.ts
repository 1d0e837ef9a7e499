// `hey doctor` shows the permission lists in force and where each comes from (`/permissions` points
// there): the user's allow list with its file, a trusted project's that narrows it, the entries
// waiting for the user's approval, the deny list; or that there is none.
import { expect, test } from "bun:test";
import { permissionLines } from "../../src/doctor/permission-lines.ts";
import { ALLOWS_NOTHING } from "../../src/permission/rules.ts";

const USER = "/h/.config/hey/config.toml";

test("each list with its file, the entries waiting for approval beside the list they would join", () => {
  const lines = permissionLines(
    {
      allow: ["read_file", "grep"],
      deny: ["bash: rm *"],
      file: USER,
      waiting: { [USER]: ["bash: ls *"] },
      narrow: [{ source: "/p/.hey/config.toml", allow: ["bash: npm *"] }],
    },
    "/h",
  );
  expect(lines).toEqual([
    "permission: allow read_file, grep (~/.config/hey/config.toml); waiting for your approval: bash: ls *",
    "permission: allow bash: npm * (/p/.hey/config.toml), which narrows the list above",
    "permission: deny bash: rm *",
  ]);
});

test("no list: every call runs; a list whose approved entries were all removed allows nothing until approved", () => {
  expect(permissionLines({ allow: [], deny: [], narrow: [] }, "/h")).toEqual(["permission: no allow or deny list: every tool call runs"]);
  expect(permissionLines({ allow: [ALLOWS_NOTHING], deny: [], narrow: [], file: USER, waiting: { [USER]: ["bash: head *"] } }, "/h")).toEqual([
    "permission: allow nothing until an entry is approved (~/.config/hey/config.toml); waiting for your approval: bash: head *",
  ]);
});
