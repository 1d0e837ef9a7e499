// A session another hey has open is marked in `hey --sessions` and `/sessions`, as `/resume`
// marks it, through dist/hey: the user sees which one `hey --resume` would refuse before trying.
// The session a REPL has open itself is not another's: its `/resume ID` reads it again.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, textOf, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { writeUserConfig } from "../helpers/fixtures.ts";
import { ALL, say, writeSession } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-in-use-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  home.remove();
});

test("hey --sessions and /sessions mark the session an interactive hey has open; the others are listed as before", async () => {
  const cwd = realpathSync(home.path);
  model = startModelServer(() => ({ text: "ok" }));
  writeUserConfig(home.path, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`);
  const env = { HOME: home.path };
  await runHey(["-p", "an earlier question"], { cwd, env });

  term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  await say(term, "still working on this", "ok"); // answered: its session file exists, and this hey holds it

  const listed = (await runHey(["--sessions"], { cwd, env })).stdout;
  expect(listed).toContain("(open in another hey) still working on this");
  expect(listed).toMatch(/  an earlier question\n/);
  expect((await runHey(["-p", "/sessions"], { cwd, env })).stdout).toContain("(open in another hey) still working on this");
  // for scripts: the listing as data says it too, not only its text
  const data = JSON.parse((await runHey(["--sessions", "--output", "json"], { cwd, env })).stdout.split("\n")[0]!);
  const rows = data.sessions as { first_prompt: string; in_use?: boolean }[];
  expect(rows.find((r) => r.first_prompt === "still working on this")?.in_use).toBe(true);
  expect(rows.find((r) => r.first_prompt === "an earlier question")?.in_use).toBeUndefined();
});

test("while an interactive hey has the session open, `hey -c /usage`, `/sessions` and `/mcp` read it (exit 0) and write nothing to it; a prompt with -c is still refused", async () => {
  const cwd = realpathSync(home.path);
  model = startModelServer(() => ({ text: "ok" }));
  writeUserConfig(home.path, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`);
  const env = { HOME: home.path };
  term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  await say(term, "still working on this", "ok"); // this hey holds its session now
  const dir = join(home.path, ".local", "state", "hey", "sessions");
  const [file] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  const before = readFileSync(join(dir, file!), "utf8");
  const requests = model.requests.length;

  const usage = await runHey(["-c", "-p", "/usage"], { cwd, env });
  expect(usage.stderr).not.toContain("in use by another hey");
  expect(usage.code).toBe(0);
  expect(usage.stdout).toMatch(/^session: .* 1 request$/m); // the open session's own numbers
  const listed = await runHey(["-c", "-p", "/sessions"], { cwd, env });
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain("(open in another hey) still working on this");
  expect((await runHey(["-c", "-p", "/mcp", "--output", "json"], { cwd, env })).code).toBe(0);

  const prompt = await runHey(["-c", "-p", "and now?"], { cwd, env });
  expect(prompt.code).toBe(1); // a wait, not a mistake on the command line (2)
  expect(prompt.stderr).toContain("is open in another hey (pid ");
  expect(model.requests.length).toBe(requests);
  expect(readFileSync(join(dir, file!), "utf8")).toBe(before);
  expect(readdirSync(dir).filter((f) => f.endsWith(".lock"))).toEqual([`${file}.lock`]); // the interactive hey's, still there
});

test("/resume of the session hey -c continues, after an answer was saved to it, reads it again instead of refusing it as in use", async () => {
  const cwd = realpathSync(home.path);
  model = startModelServer((req) => ({ text: `heard ${textOf(req.messages.at(-1)!).split("\n")[0]}` }));
  writeUserConfig(home.path, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`);
  const stateHome = join(home.path, ".local", "state");
  const id = writeSession(stateHome, cwd, "an earlier question", "an earlier answer");

  term = await startTerm({ cwd, cols: 200, rows: 50, args: ["-c"], env: { HOME: home.path, NO_COLOR: "1" } });
  const t = term;
  await say(t, "first here", "heard first here");
  await say(t, `/resume ${id}`, `resumed session ${id}`);
  await say(t, "second here", "heard second here");
  await say(t, "/quit", "[exit 0]");
  const screen = await t.screen(ALL);
  expect(screen).not.toContain("in use");
  expect(screen).not.toContain("not saved");
  // the second request went on from the file: the earlier exchange and the first one here
  expect(
    model.requests
      .at(-1)!
      .messages.map(textOf)
      .filter((m) => m.includes("here") || m.includes("earlier")),
  ).toEqual([
    expect.stringContaining("an earlier question"),
    "an earlier answer",
    expect.stringContaining("first here"),
    "heard first here",
    expect.stringContaining("second here"),
  ]);
  const saved = readFileSync(join(stateHome, "hey", "sessions", `${id}.jsonl`), "utf8");
  expect(saved.indexOf("second here")).toBeGreaterThan(saved.indexOf("heard first here"));
});

test("hey -c while another hey has this directory's latest session open (a second terminal) continues the latest one that is not, and says so", async () => {
  const cwd = realpathSync(home.path);
  model = startModelServer(() => ({ text: "ok" }));
  writeUserConfig(home.path, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`);
  const env = { HOME: home.path };
  const stateHome = join(home.path, ".local", "state");
  const crashed = writeSession(stateHome, cwd, "my crashed session", "half done"); // a hey killed in the first terminal
  term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  await say(term, "the other terminal's work", "ok"); // the newest session now, held by this hey

  const resumed = await runHey(["-c", "-p", "go on"], { cwd, env });
  expect(resumed.code).toBe(0);
  expect(resumed.stderr).toContain(`is open in another hey; continuing ${crashed}, the latest one that is not: “my crashed session”`);
  const sent = model.requests.at(-1)!.messages.map(textOf);
  expect(sent.some((m) => m.includes("my crashed session"))).toBe(true);
  expect(sent.some((m) => m.includes("the other terminal's work"))).toBe(false);
});
