// A .hey/ with the project's files below a git root that has none of them becomes the project
// (fs/places.ts projectRoot); when the user trusted that git root, start-up says in one line that
// the project moved and its trust did not come along (trust/store.ts strayNotices, x136 finding 3).
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { recordTrust, strayNotices } from "../../src/trust/store.ts";
import { tempDir } from "../helpers/e2e.ts";

const tmp = tempDir("hey-taken-");
afterAll(() => tmp.remove());
const base = realpathSync(tmp.path);
const repo = join(base, "repo");
const web = join(repo, "web");
const trust = { home: join(base, "home"), trustFile: join(base, "config", "trust.json") };
mkdirSync(join(repo, ".git"), { recursive: true });
mkdirSync(join(web, ".hey", "skills", "x"), { recursive: true });
writeFileSync(join(web, ".hey", "skills", "x", "SKILL.md"), "---\nname: x\ndescription: x.\n---\nx\n");

test("a trusted git root whose place a deeper .hey/ took is named once at start; an untrusted one is not", async () => {
  expect(strayNotices(web, web, trust)).toEqual([]); // not trusted: nothing was lost
  await recordTrust(trust.trustFile, repo, true, join(base, "state", "approvals.json"));
  expect(strayNotices(web, web, trust)).toEqual([
    `the project is ${web} (its .hey/ has the project's skills or config), not ${repo}, which you trusted: trust and approvals are kept per project root (move its .hey/ files to ${repo}/.hey/ to keep working in ${repo})`,
  ]);
  expect(strayNotices(repo, repo, trust)).toEqual([]); // the git root is the project: nothing taken
});
