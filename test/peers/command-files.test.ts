// Other agents' command files (Claude Code's `.claude/commands/`, the user's `~/.claude/commands/`
// and Codex's `~/.codex/prompts/`): `/NAME`, `/project:NAME`, `/user:NAME` and `/prompts:NAME` name
// the file and the skill it would be — the user's own in the user's skills folder, which loads in
// every project, a project's in its .hey/skills/ — and a start says each folder once.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { peerCommandFile, peerNotices } from "../../src/peers/found.ts";
import { slashMistake } from "../../src/ui/slash.ts";
import { peerHome } from "../helpers/peer-home.ts";

const { home, project, at, lay } = peerHome("hey-peer-commands-", "p2");
lay(join(home.path, ".codex", "prompts", "prdesc.md"), "Write a PR description for $1\n");
lay(join(home.path, ".claude", "commands", "changelog.md"), "Write the changelog for $ARGUMENTS\n");
lay(join(project, ".claude", "commands", "fix-issue.md"), "Fix issue $ARGUMENTS\n");

const names = { skills: [], other: (word: string) => peerCommandFile(at, word) };

test.each([
  [
    "/prompts:prdesc feature-x",
    "/prompts:prdesc is Codex's prompt in ~/.codex/prompts/prdesc.md, which hey does not run; as a skill it would be: copy it to ~/.config/hey/skills/prdesc.md, with name and description front matter, then /skill:prdesc; its $1, $2… are $ARGUMENTS[0], $ARGUMENTS[1]… in a skill",
  ],
  [
    "/changelog v2",
    "/changelog is Claude Code's command in ~/.claude/commands/changelog.md, which hey does not run; as a skill it would be: copy it to ~/.config/hey/skills/changelog.md, with name and description front matter, then /skill:changelog",
  ],
  [
    "/user:changelog",
    "/user:changelog is Claude Code's command in ~/.claude/commands/changelog.md, which hey does not run; as a skill it would be: copy it to ~/.config/hey/skills/changelog.md, with name and description front matter, then /skill:changelog",
  ],
  [
    "/fix-issue 12",
    "/fix-issue is Claude Code's command in .claude/commands/fix-issue.md, which hey does not run; as a skill it would be: copy it to .hey/skills/fix-issue.md, with name and description front matter, then /skill:fix-issue",
  ],
  [
    "/project:fix-issue 12",
    "/project:fix-issue is Claude Code's command in .claude/commands/fix-issue.md, which hey does not run; as a skill it would be: copy it to .hey/skills/fix-issue.md, with name and description front matter, then /skill:fix-issue",
  ],
  // a name with no file of that agent's: what such a file would become, and still nothing sent
  [
    "/prompts:nothing here",
    "hey has no /prompts:nothing; a Codex prompt in ~/.codex/prompts/NAME.md becomes a skill as ~/.config/hey/skills/NAME.md, with name and description front matter: /skill:NAME runs it",
  ],
  [
    "/project:changelog",
    "hey has no /project:changelog; a Claude Code command in .claude/commands/NAME.md becomes a skill as .hey/skills/NAME.md, with name and description front matter: /skill:NAME runs it",
  ],
])("%s is answered, not sent", (line, said) => {
  expect(slashMistake(line, names)).toBe(said);
});

test("a start names each folder of commands once, with where its skills go", () => {
  const said = peerNotices(at, false);
  expect(said).toContain(
    "not used: Claude Code's commands in .claude/commands/ (fix-issue): hey runs skills — copy one to .hey/skills/NAME.md with name and description front matter, then /skill:NAME runs it",
  );
  expect(said).toContain(
    "not used: Claude Code's commands in ~/.claude/commands/ (changelog): hey runs skills — copy one to ~/.config/hey/skills/NAME.md with name and description front matter, then /skill:NAME runs it",
  );
  expect(said).toContain(
    "not used: Codex's prompts in ~/.codex/prompts/ (prdesc): hey runs skills — copy one to ~/.config/hey/skills/NAME.md with name and description front matter, then /skill:NAME runs it",
  );
});

test("started in the home directory, its .claude/commands are the user's: their skills go in the user's folder", () => {
  const inHome = { ...at, cwd: home.path, root: home.path };
  expect(peerCommandFile(inHome, "changelog")).toContain("copy it to ~/.config/hey/skills/changelog.md");
  expect(peerNotices(inHome, false).filter((l) => l.includes("commands in"))).toEqual([
    "not used: Claude Code's commands in .claude/commands/ (changelog): hey runs skills — copy one to ~/.config/hey/skills/NAME.md with name and description front matter, then /skill:NAME runs it",
  ]);
});
