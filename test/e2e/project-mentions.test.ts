// `@name` for a file anywhere in the project, and a dropped image's path, through dist/hey against a
// local mock model: `hey -p "explain @cli.ts"` attaches src/deep/cli.ts and says so; Tab after
// `@dee` at the REPL's prompt writes `@src/deep/cli.ts`; a screenshot's path pasted as GNOME
// Terminal or iTerm2 drop it is attached as an image.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { until } from "../helpers/wait.ts";
import { answer, askedOf, lastLine, replTerms } from "./repl-helpers.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

const server = fileReplayServer();
const work = fileTempDir("hey-project-mentions-");
mkdirSync(join(work.path, ".git")); // the project's root
mkdirSync(join(work.path, "src", "deep"), { recursive: true });
mkdirSync(join(work.path, "a"));
mkdirSync(join(work.path, "b"));
writeFileSync(join(work.path, "src", "deep", "cli.ts"), "export const cli = 1;\n");
writeFileSync(join(work.path, "a", "index.ts"), "a\n");
writeFileSync(join(work.path, "b", "index.ts"), "b\n");
const shot = join(work.path, "Screenshot 2026-12-06 at 20.30.png");
const png = new Uint8Array(64); // 1×1: its signature and header, filler, and its IEND chunk
png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1]);
png.set([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82], 64 - 12);
writeFileSync(shot, png);
const asked = askedOf(server);
const { open } = replTerms(server, { cwd: work.path });
const adHoc = () => ["--base-url", `${server.url}/v1`, "-m", "some-model"];
const attached = "\n\n```src/deep/cli.ts\nexport const cli = 1;\n```";
const kinds = (content: unknown) => (Array.isArray(content) ? content.map((p: { type: string }) => p.type) : ["string"]);

test("hey -p with @cli.ts attaches the one project file of that name and says which", async () => {
  server.enqueue(answer("It exports cli."));
  const run = await runHey([...adHoc(), "-p", "explain @cli.ts"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "It exports cli.\n", stderr: "hey: @cli.ts → src/deep/cli.ts\n" });
  expect(asked().at(-1)).toBe(`explain @cli.ts${attached}`);
});

test("a name several project files have is listed and none is attached", async () => {
  server.enqueue(answer("Which one?"));
  const run = await runHey([...adHoc(), "-p", "explain @index.ts"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stderr: "hey: @index.ts names 2 files: a/index.ts, b/index.ts; none attached, mention one by its path\n" });
  expect(asked().at(-1)).toBe("explain @index.ts");
});

test("Tab after @dee writes the project file's path, and Enter sends its content", async () => {
  const t = await open();
  await t.type("explain @dee");
  // the project is listed in the background as the REPL starts (a keystroke never waits for it): Tab again until it is
  await until(async () => {
    await t.keys("Tab");
    return lastLine(await t.screen()) === "› explain @src/deep/cli.ts";
  }, "Tab to complete @dee");
  server.enqueue(answer("Explained."));
  await t.type("please");
  await t.keys("Enter");
  await t.waitFor("Explained.");
  expect(String(asked().at(-1))).toStartWith(`explain @src/deep/cli.ts please${attached}`);
});

test.each([
  ["GNOME Terminal", `'${shot}'`],
  ["iTerm2", shot.replaceAll(" ", "\\ ")],
])("a screenshot dropped as %s writes it is attached as an image", async (_, dropped) => {
  const t = await open();
  await t.type("what is in this image? ");
  await t.paste(dropped);
  await t.waitFor((s) => s.replaceAll("\n", "").includes(`this image? @"${shot}"`)); // the line wraps
  server.enqueue(answer("A screenshot."));
  await t.keys("Enter");
  await t.waitFor("A screenshot.");
  const last = asked().at(-1);
  expect(kinds(last)).toEqual(["text", "image_url"]);
  expect(JSON.stringify(last)).toContain(`what is in this image? @\\"${shot}\\"`);
});
