// bash's tilde prefixes that are directories known only at run time — `~+` ($PWD), `~-` ($OLDPWD),
// `~N`/`~+N`/`~-N` (the directory stack) — could name what a deny entry names, so a command that
// gives one where the entry's word stands is refused when bash reads it. dash reads them as words.
import { expect, test } from "bun:test";
import { compileRules, decide } from "../../src/permission/rules.ts";

const decideIn = (shell: string, command: string) =>
  decide("bash", { command }, compileRules({ allow: [], deny: ["bash: rm -rf build"] }, shell, undefined, false).rules);

test.each(["cd build && cd .. && rm -rf ~-", "rm -rf ~+/build", "rm -rf ~+", "pushd build && pushd .. && rm -rf ~1", "rm -rf ~-0"])(
  "%s is refused when bash may read it",
  (command) => {
    for (const shell of ["bash", "sh"]) {
      const d = decideIn(shell, command);
      expect({ shell, d }).toEqual({
        shell,
        d: { allowed: false, reason: expect.stringContaining("known only at run time and could match deny entry `bash: rm -rf build`") },
      });
    }
    expect(decideIn("dash", command)).toEqual({ allowed: true }); // dash looks up a user named `+`, `-`, `1`
  },
);

test.each(["rm -rf ~/build", "rm -rf ~", "rm -rf x~+", "rm -rf '~+'"])("%s is another file, and runs", (command) => {
  expect(decideIn("bash", command)).toEqual({ allowed: true });
});

test("`/..` is `/`", () => {
  const rules = compileRules({ allow: [], deny: ["bash: rm -rf /"] }, "sh").rules;
  for (const command of ["rm -rf /../", "rm -rf /../../.", "rm -rf //"])
    expect([command, decide("bash", { command }, rules).allowed]).toEqual([command, false]);
  expect(decide("bash", { command: "rm -rf ../" }, rules)).toEqual({ allowed: true });
});
