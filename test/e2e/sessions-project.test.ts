// `-c` and `--sessions` in a project's subdirectory, through dist/hey (SPEC §19, README "Sessions"):
// a directory with no session of its own continues and lists its project's (started at the root or
// another subdirectory); one with sessions of its own keeps to them; a nested repository is a
// project of its own.
import { afterAll, afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { movedNote } from "../../src/kernel/user-notes.ts";
import { lastUserText, startModelServer, textOf } from "../helpers/model-server.ts";

const model = startModelServer((req) => ({ text: `noted: ${lastUserText(req)}` }));
afterAll(() => model.stop());
let projects: ReturnType<typeof tempDir>;
let state: ReturnType<typeof tempDir>;
let repo: string;
beforeEach(() => {
  projects = tempDir("hey-projects-");
  state = tempDir("hey-state-");
  repo = join(realpathSync(projects.path), "shop");
  for (const dir of [".git", "api/src", "web", "vendor/lib/.git"]) mkdirSync(join(repo, dir), { recursive: true });
});
afterEach(() => {
  projects.remove();
  state.remove();
});
const hey = (dir: string, args: string[]) =>
  runHey(["--base-url", model.baseUrl, "-m", "m", ...args], { cwd: join(repo, dir), env: { XDG_STATE_HOME: state.path } });
/** the user messages of the last request */
const sentPrompts = () =>
  model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "user")
    .map((m) => textOf(m));
const sessionOf = async (run: Promise<{ stdout: string }>) => String(jsonEvents((await run).stdout)[0]!.id);

test("from a subdirectory with no session of its own, -c continues the project's latest and --sessions lists the project's", async () => {
  expect((await hey("", ["-p", "the release steps are in RELEASE.md"])).code).toBe(0);
  const listed = await hey("api/src", ["--sessions"]);
  expect(listed.stdout).toStartWith(`No sessions in this directory; its project's, ${repo}:\n`);
  expect(listed.stdout).toContain("the release steps are in RELEASE.md");
  expect(listed.stdout).toContain("`hey -c` continues the latest one of this directory (of its project when the directory has none)");
  // a script reads whose sessions these are
  const data = jsonEvents((await hey("api/src", ["--sessions", "--output", "json"])).stdout)[0]!;
  expect(data).toMatchObject({
    type: "command",
    name: "--sessions",
    scope: "project",
    sessions: [{ cwd: repo, first_prompt: "the release steps are in RELEASE.md" }],
  });
  expect(jsonEvents((await hey("", ["--sessions", "--output", "json"])).stdout)[0]).toMatchObject({ scope: "directory" });
  expect(jsonEvents((await hey("api/src", ["--sessions", "--all", "--output", "json"])).stdout)[0]).toMatchObject({ scope: "all" });

  const run = await hey("api/src", ["-c", "-p", "where are the release steps?"]);
  expect(run.code).toBe(0);
  // the model is told where hey works now, before the words: the system prompt names where the session began
  expect(sentPrompts()).toEqual(["the release steps are in RELEASE.md", `${movedNote(join(repo, "api", "src"))}\nwhere are the release steps?`]);
  // hey works where it runs, and says the session began elsewhere
  expect(run.stderr).toContain(`hey: this session was started in ${repo}; hey works in ${join(repo, "api", "src")} now`);
  expect(run.stderr).not.toContain("no earlier session");
});

test("a subdirectory with sessions of its own continues its own latest, though the root's is newer; the root goes on with its own", async () => {
  const web = await sessionOf(hey("web", ["--output", "json", "-p", "style the header"]));
  const root = await sessionOf(hey("", ["--output", "json", "-p", "bump the version"]));
  expect(await sessionOf(hey("web", ["--output", "json", "-c", "-p", "and the footer"]))).toBe(web);
  expect(sentPrompts()).toEqual(["style the header", "and the footer"]);
  expect(await sessionOf(hey("", ["--output", "json", "-c", "-p", "and the changelog"]))).toBe(root);
  const listed = await hey("web", ["--sessions"]);
  expect(listed.stdout).not.toContain("its project's");
  expect(listed.stdout).toContain("style the header");
  expect(listed.stdout).not.toContain("bump the version");
});

test("a nested repository is a project of its own: -c there does not continue the outer project's session", async () => {
  expect((await hey("", ["-p", "the outer project"])).code).toBe(0);
  const run = await hey("vendor/lib", ["-c", "-p", "hello"]);
  expect(run.code).toBe(0);
  expect(sentPrompts()).toEqual(["hello"]);
  expect(run.stderr).toBe("hey: no earlier session in this directory; starting a new one\n");
  // and the outer project's subdirectories do not continue the nested one's
  expect((await hey("web", ["-c", "-p", "outer again"])).code).toBe(0);
  expect(sentPrompts()).toEqual(["the outer project", `${movedNote(join(repo, "web"))}\nouter again`]);
});

test("a subdirectory in a project with no session anywhere starts a new one and says where it looked", async () => {
  const run = await hey("api", ["-c", "-p", "hi"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("hey: no earlier session in this directory or its project; starting a new one\n");
  const listed = await hey("api", ["--sessions"]);
  expect(listed.stdout).toContain("hi"); // now this directory has one
  expect(listed.stdout).not.toContain("its project's");
});

test("at the project root with no session of its own, --sessions lists those begun below it and says they are the project's", async () => {
  expect((await hey("web", ["-p", "style the header"])).code).toBe(0);
  const listed = await hey("", ["--sessions"]);
  expect(listed.stdout).toStartWith(`No sessions in this directory; its project's, ${repo}:\n`);
  expect(jsonEvents((await hey("", ["--sessions", "--output", "json"])).stdout)[0]).toMatchObject({ scope: "project", sessions: [{ cwd: join(repo, "web") }] });
});
