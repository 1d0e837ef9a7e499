// `hey trust` at a terminal (tmux, dist/hey) says where the project stands before it asks: in a
// project trusted already, a no (Enter) leaves it trusted and says so — it never reads as if the
// trust were taken back — and says how to take it back; in one not trusted, a no records nothing.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const dirs: ReturnType<typeof tempDir>[] = [];
const terminals: Term[] = [];
afterEach(async () => {
  for (const t of terminals.splice(0)) await t.close();
  for (const d of dirs.splice(0)) d.remove();
});

/** `hey trust` run in `project` with `home` as HOME, answered with `answer` then Enter; the screen once it exited. */
async function heyTrust(home: string, project: string, answer: string): Promise<string> {
  // wide: hey trust's lines are broken at spaces to the terminal (long-messages-wrap.test.ts), and these read them as lines
  const term = await startTerm({ args: ["trust"], cwd: project, env: { HOME: home }, cols: 250 });
  terminals.push(term);
  await term.waitFor("Trust this project? (y/N)");
  if (answer) await term.type(answer);
  await term.keys("Enter");
  return term.waitFor("[exit 0]", { scrollback: true, joined: true });
}

test("hey trust says a project is trusted already, and a no leaves it trusted, saying so", async () => {
  const home = tempDir("hey-home-");
  const projects = tempDir("hey-projects-");
  dirs.push(home, projects);
  const project = join(projects.path, "p");
  mkdirSync(join(project, ".hey"), { recursive: true });
  writeFileSync(join(project, ".hey", "config.toml"), "[agent]\nmax_turns = 5\n");
  const root = realpathSync(project);
  const trustFile = join(home.path, ".config", "hey", "trust.json");
  const recorded = () => Object.values(JSON.parse(readFileSync(trustFile, "utf8")).projects as Record<string, { trusted: boolean }>);

  const untrusted = await heyTrust(home.path, project, "");
  expect(untrusted).not.toContain("trusted already");
  expect(untrusted).toContain(`${root} is not trusted: nothing recorded (hey trust asks again)`);

  const yes = await heyTrust(home.path, project, "y");
  expect(yes).not.toContain("trusted already");
  expect(yes).toContain(`${root} is trusted now (recorded in ${trustFile})`);
  expect(recorded()).toEqual([expect.objectContaining({ trusted: true })]);

  // nothing run and no skill new: nothing to approve, so nothing asked (r3 #6)
  const nothing = await startTerm({ args: ["trust"], cwd: project, env: { HOME: home.path }, cols: 200, rows: 40 });
  try {
    expect(await nothing.waitFor("[exit 0]")).toContain(
      `${root} is trusted already, and nothing in it is new to approve (hey trust --revoke takes the trust back)`,
    );
  } finally {
    await nothing.close();
  }
  writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { db: { command: "db-server" } } }));
  const again = await heyTrust(home.path, project, "");
  expect(again).toContain(`${root} is trusted already; trusting it again approves its files as listed\n`);
  expect(again.indexOf("trusted already")).toBeLessThan(again.indexOf("Trust this project? (y/N)"));
  expect(again).toContain(`nothing recorded: ${root} stays trusted with what you approved before (hey trust --revoke takes it back)`);
  expect(again).not.toContain("not trusted");
  expect(recorded()).toEqual([expect.objectContaining({ trusted: true })]);
});
