// `@file` in Chinese text, through dist/hey against a local mock model: a mention followed by
// full-width punctuation or CJK text, or written right after CJK text, brings the file to the model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { answer, askedOf } from "./repl-helpers.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

const server = fileReplayServer();
const work = fileTempDir();
writeFileSync(join(work.path, "中文.txt"), "中文内容\n");
mkdirSync(join(work.path, "目录"));
writeFileSync(join(work.path, "目录", "文件.txt"), "目录里的内容\n");
const asked = askedOf(server);
const adHoc = () => ["--base-url", `${server.url}/v1`, "-m", "some-model"];
const one = "\n\n```中文.txt\n中文内容\n```";

test.each([
  ["请看 @中文.txt，然后总结", one],
  ["请看 @中文.txt。", one],
  ["请看@中文.txt 然后总结", one],
  ["「@中文.txt」", one],
  ["看看 @目录/文件.txt和@中文.txt", "\n\n```目录/文件.txt\n目录里的内容\n```" + one],
])("hey -p %p attaches the file, and says nothing on stderr", async (message, attached) => {
  server.enqueue(answer("好的。"));
  const run = await runHey([...adHoc(), "-p", message], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "好的。\n", stderr: "" });
  expect(asked().at(-1)).toBe(message + attached);
});
