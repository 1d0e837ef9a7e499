// An embedded agent under permissionCheck's path entries (x75 #4): `allow = ["read_file: src/**",
// "grep"]` lets the model read its project's src/ — judged from createAgent's `cwd`, not the
// program's — and refuses a sibling project's file by `..`, a link in src/ leading out of it, and
// an absolute path, each refusal naming the entry that would allow it; the files' text never
// reaches the model. Under a `grep:` deny entry its grep of the project passes the denied files by.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent, createProvider, permissionCheck, textOf } from "../src/lib.ts";
import { tempDir } from "./helpers/e2e.ts";
import { sseReply, startReplayServer } from "./helpers/replay-server.ts";
import { chatChunk, sse } from "./helpers/sse.ts";

const server = startReplayServer();
const dir = tempDir("hey-embed-paths-");
afterAll(() => {
  server.stop();
  dir.remove();
});

test("an agent's allow list with read_file: src/** reads src/ under its own cwd and refuses ../, a link out of src/ and an absolute path", async () => {
  const project = join(dir.path, "work");
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(dir.path, "w2"));
  mkdirSync(join(dir.path, "ssh"));
  writeFileSync(join(project, "src", "a.txt"), "alpha\n");
  writeFileSync(join(dir.path, "w2", "pw.txt"), "db=hunter2\n");
  writeFileSync(join(dir.path, "ssh", "id_ed25519"), "PRIVATE KEY DATA\n");
  symlinkSync(join(dir.path, "ssh"), join(project, "src", "keys"));
  const key = join(realpathSync(dir.path), "ssh", "id_ed25519");
  const paths = ["src/a.txt", "../w2/pw.txt", "src/keys/id_ed25519", key];
  server.enqueue(
    sseReply(
      sse([
        ...paths.map((path, index) => chatChunk({ toolCall: { index, id: `c${index}`, name: "read_file", arguments: JSON.stringify({ path }) } })),
        chatChunk({ finish: "tool_calls" }),
      ]),
    ),
    sseReply(sse([chatChunk({ content: "done" }), chatChunk({ finish: "stop" })])),
  );
  const provider = await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
  const agent = createAgent({ provider, cwd: project, permission: permissionCheck({ allow: ["read_file: src/**", "grep"] }) });
  await agent.send("review", new AbortController().signal);
  const results = agent.messages.filter((m) => m.role === "tool").map((m) => textOf(m));
  const pw = join(realpathSync(dir.path), "w2", "pw.txt");
  const refused = (what: string, entry: string) =>
    `blocked by permission rules: read_file of ${what} matches no allow entry; the allow entry "read_file: ${entry}" would allow it (allowed: grep, read_file: src/**)`;
  // refusals are answered before the calls that run
  expect(results.sort()).toEqual(
    [
      "1\talpha",
      refused(`\`../w2/pw.txt\`${join(dir.path, "w2", "pw.txt") === pw ? "" : ` (${pw})`}`, pw),
      refused(`\`src/keys/id_ed25519\` (${key})`, key),
      refused(`\`${key}\``, key),
    ].sort(),
  );
});

test('an agent under deny = ["grep: **/.env"] greps its project: the .env files are passed by and counted, the rest found', async () => {
  const project = join(dir.path, "greps");
  mkdirSync(join(project, "api"), { recursive: true });
  writeFileSync(join(project, ".env"), "KEY=root-secret-value\n");
  writeFileSync(join(project, "api", ".env"), "KEY=api-secret-value\n");
  writeFileSync(join(project, "api", "config.ts"), "export const key = env.KEY;\n");
  server.enqueue(
    sseReply(
      sse([chatChunk({ toolCall: { index: 0, id: "g0", name: "grep", arguments: JSON.stringify({ pattern: "KEY" }) } }), chatChunk({ finish: "tool_calls" })]),
    ),
    sseReply(sse([chatChunk({ content: "done" }), chatChunk({ finish: "stop" })])),
  );
  const provider = await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
  const agent = createAgent({ provider, cwd: project, permission: permissionCheck({ deny: ["grep: **/.env"] }) });
  await agent.send("where is KEY read?", new AbortController().signal);
  const [result] = agent.messages.filter((m) => m.role === "tool").map((m) => textOf(m));
  expect(result).toContain("api/config.ts:1: export const key = env.KEY;");
  expect(result).toContain("[2 files not searched: the permission rules keep them from grep]");
  expect(result).not.toContain("secret-value");
});
