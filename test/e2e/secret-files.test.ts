// A project's secret file through dist/hey: the model reads it (read_file, an @file) with its values
// hidden, and a write or an edit can never put a placeholder it was shown (`[redacted]`,
// `[secret: NAME]`) back into the file in place of the user's value, in this run or after `hey -c`;
// changing the other lines with edit still works. A write's diff and a credential in the
// environment are hidden alike.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { resultText, startModelServer, textOf, type ModelServer, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(60_000);

const KEY = "gwkey_plainvalue_0001"; // the gateway key hey's config uses, ${MYGW_KEY}
const TOKEN = "ghp_" + "Zq8Wn4Lk2Jh6Gf0Ds9Ap7Ox5Ic3Ub1Ty9Rz3";
const ENV = `MYGW_KEY=${KEY}\nGITHUB_TOKEN=${TOKEN}\nPORT=3000\n`;
let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
let turns: Turn[] = [];
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  model = startModelServer(() => turns.shift() ?? { text: "done" });
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "gw"\nmodel = "m"\n[provider.gw]\nbase_url = "${model.baseUrl}"\napi_key = "\${MYGW_KEY}"\nmodels = ["m"]\n`,
  );
  writeFileSync(join(project.path, ".env.local"), ENV);
});
afterEach(() => {
  model.stop();
  home.remove();
  project.remove();
});

const hey = (args: string[]) => runHey(args, { cwd: project.path, env: { HOME: home.path, MYGW_KEY: KEY } });
const results = () =>
  model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m));
const envFile = () => readFileSync(join(project.path, ".env.local"), "utf8");
const sessionText = () => {
  const dir = join(home.path, ".local", "state", "hey", "sessions");
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
};

test("read with its values hidden, then rewritten whole with the placeholders: refused, the file keeps its keys; the PORT line changed with edit", async () => {
  turns = [
    { calls: [["read_file", { path: ".env.local" }]] },
    { calls: [["write_file", { path: ".env.local", content: "MYGW_KEY=[redacted]\nGITHUB_TOKEN=[secret: GITHUB_TOKEN]\nPORT=4000\n" }]] },
    { calls: [["write_file", { path: ".env.local", content: "MYGW_KEY=[redacted]\nGITHUB_TOKEN=abc\nPORT=4000\n" }]] },
    { calls: [["edit", { path: ".env.local", old_string: "PORT=3000", new_string: "PORT=4000" }]] },
  ];
  const run = await hey(["-p", "set PORT to 4000 in .env.local"]);
  expect(run.code).toBe(0);
  const [read, both, known, edited] = results();
  expect(read).toBe("1\tMYGW_KEY=[redacted]\n2\tGITHUB_TOKEN=[secret: GITHUB_TOKEN]\n3\tPORT=3000");
  expect(both).toStartWith("write_file: content holds [secret: GITHUB_TOKEN], [redacted], which stands for a value hey hid from you;");
  expect(known).toStartWith("write_file: content holds [redacted], which stands for a value hey hid from you;");
  expect(known).toContain("Change only the lines you mean to with edit");
  expect(edited).toContain("+PORT=4000");
  expect(envFile()).toBe(`MYGW_KEY=${KEY}\nGITHUB_TOKEN=${TOKEN}\nPORT=4000\n`);
  expect(run.stderr).toContain("✗ write_file: content holds");
});

test("after hey -c: the key the user typed comes back as [redacted]; a file written with it is refused", async () => {
  turns = [{ text: "noted" }];
  expect((await hey(["-p", `my other gateway key is ${KEY}`])).code).toBe(0);
  expect(sessionText()).not.toContain(KEY);
  turns = [{ calls: [["write_file", { path: "gw.env", content: "GW=[redacted]\n" }]] }];
  const run = await hey(["-c", "-p", "write that key to gw.env"]);
  expect(run.code).toBe(0);
  expect(results().at(-1)).toStartWith("write_file: content holds [redacted], which stands for a value hey hid from you; the new file would hold that text");
  expect(readdirSync(project.path)).not.toContain("gw.env");
});

test("a document that holds [redacted] as text is rewritten as usual after a secret was shown hidden", async () => {
  const doc = "Keys are shown as [redacted].\n";
  writeFileSync(join(project.path, "SECRETS.md"), doc);
  turns = [
    { calls: [["read_file", { path: ".env.local" }]] },
    { calls: [["read_file", { path: "SECRETS.md" }]] },
    { calls: [["write_file", { path: "SECRETS.md", content: `${doc}They never reach the model.\n` }]] },
  ];
  expect((await hey(["-p", "document it"])).code).toBe(0);
  expect(results().at(-1)).toStartWith("overwrote SECRETS.md");
  expect(readFileSync(join(project.path, "SECRETS.md"), "utf8")).toBe(`${doc}They never reach the model.\n`);
});

test("the diff of a write_file that replaces the file shows its old lines with their secrets hidden, as read_file showed them", async () => {
  turns = [{ calls: [["read_file", { path: ".env.local" }]] }, { calls: [["write_file", { path: ".env.local", content: "PORT=4000\n" }]] }];
  const run = await hey(["-p", "keep only the port, 4000"]);
  expect(run.code).toBe(0);
  expect(envFile()).toBe("PORT=4000\n");
  expect(run.stderr).toContain("✓ overwrote\n");
  expect(run.stderr).toContain("-MYGW_KEY=[redacted]\n");
  expect(run.stderr).toContain("-GITHUB_TOKEN=[secret: GITHUB_TOKEN]\n");
  expect(run.stderr).toContain("+PORT=4000\n");
  expect(run.stdout + run.stderr).not.toContain(KEY);
  expect(run.stdout + run.stderr).not.toContain(TOKEN);
});

test("an @file's secrets are hidden as read_file hides them, in the request and in the session alike; written back, refused", async () => {
  turns = [{ calls: [["write_file", { path: ".env.local", content: "MYGW_KEY=[redacted]\nGITHUB_TOKEN=[secret: GITHUB_TOKEN]\nPORT=4000\n" }]] }];
  expect((await hey(["-p", "@.env.local set the port to 4000"])).code).toBe(0);
  const sent = textOf(model.requests[0]!.messages.findLast((m) => m.role === "user"));
  expect(sent).toBe("@.env.local set the port to 4000\n\n```.env.local\nMYGW_KEY=[redacted]\nGITHUB_TOKEN=[secret: GITHUB_TOKEN]\nPORT=3000\n```");
  expect(results().at(-1)).toStartWith("write_file: content holds [secret: GITHUB_TOKEN], [redacted], which stands for a value hey hid from you;");
  expect(envFile()).toBe(ENV);
  expect(JSON.stringify(model.requests)).not.toContain(KEY);
  expect(JSON.stringify(model.requests)).not.toContain(TOKEN);
  // resumed, the model reads the message it read live
  const before = model.requests.length;
  turns = [{ text: "3000" }];
  expect((await hey(["-c", "-p", "what was the port?"])).code).toBe(0);
  const again = model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "user")
    .map((m) => textOf(m));
  expect(model.requests.length).toBe(before + 1);
  expect(again[0]).toBe(sent);
});

test("a credential in the environment: printenv gives the model [redacted]; the command still has the variable; a plain one stays", async () => {
  const token = "ghp_" + "Yx7Vw5Ut3Sr1Qp9On7Ml5Kj3Ih1Gf9Ed7Cb5";
  turns = [{ calls: [["bash", { command: 'printenv GITHUB_TOKEN; printenv DB_PASSWORD; echo "length ${#GITHUB_TOKEN}"' }]] }];
  const run = await runHey(["--output", "json", "-p", "print the token"], {
    cwd: project.path,
    env: { HOME: home.path, MYGW_KEY: KEY, GITHUB_TOKEN: token, DB_PASSWORD: "postgres" },
  });
  expect(run.code).toBe(0);
  expect(results().at(-1)).toBe("[redacted]\npostgres\nlength 40\n[exit code 0]");
  expect(JSON.stringify(model.requests)).not.toContain(token);
  expect(run.stdout + run.stderr).not.toContain(token);
  expect(sessionText()).not.toContain(token);
});

test("hey's own config.toml with a key written in it: rewritten whole to add an MCP server, refused; added with edit, the key stays", async () => {
  const file = join(home.path, ".config", "hey", "config.toml");
  const literal = "literal_gw_key_0123456789";
  const config = `[default]\nprovider = "gw"\nmodel = "m"\n[provider.gw]\nbase_url = "${model.baseUrl}"\napi_key = "${literal}"\nmodels = ["m"]\n`;
  writeFileSync(file, config);
  const shown = config.replace(literal, "[redacted]");
  const server = '[mcp.fs]\ncommand = "npx"\nargs = ["-y", "@modelcontextprotocol/server-filesystem", "."]\n';
  turns = [
    { calls: [["read_file", { path: file }]] },
    { calls: [["write_file", { path: file, content: shown + server }]] },
    { calls: [["edit", { path: file, old_string: 'models = ["m"]\n', new_string: `models = ["m"]\n${server}` }]] },
  ];
  const run = await runHey(["-p", "add the filesystem MCP server"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const [read, write, edit] = results();
  expect(read).toContain('6\tapi_key = "[redacted]"');
  expect(write).toStartWith("write_file: content holds [redacted], which stands for a value hey hid from you;");
  expect(edit).toContain("+[mcp.fs]");
  expect(readFileSync(file, "utf8")).toBe(config + server);
});
