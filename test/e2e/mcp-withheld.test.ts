// `hey mcp` names the servers the configuration has but this run did not start, and why, instead of
// saying there are none: a table added to the user's config after hey recorded what the user
// approved ("not approved yet: start hey to approve it"), and one in an untrusted project's
// .hey/config.toml or .mcp.json ("hey trust"). None of them is started. Through dist/hey.
import { expect, setDefaultTimeout, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { resultText, textOf } from "../helpers/model-server.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const home = eachTempDir("hey-mcp-withheld-");
const model = eachModelServers();

test("hey mcp lists an unapproved server and an untrusted project's servers with why, starting none", async () => {
  const mark = join(home.path, "started");
  const marking = (name: string) => `command = "/bin/sh"\nargs = ["-c", ${JSON.stringify(`echo ${name} >> ${JSON.stringify(mark)}`)}]\n`;
  const m = model(() => ({ text: "hello" }));
  const config = writeUserConfig(home.path, `[default]\nprovider = "mock"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n`);
  const project = join(home.path, "proj");
  mkdirSync(join(project, ".hey"), { recursive: true });
  const hey = (cwd: string) => runHey(["mcp"], { cwd, env: { HOME: home.path } });

  // nothing to list yet; the first run the model answers records the user's file as approved (hey mcp asks no model)
  const first = await hey(home.path);
  expect(first).toMatchObject({ code: 0 });
  expect(first.stdout).toStartWith("no MCP servers in use");
  expect((await runHey(["-p", "hi"], { cwd: home.path, env: { HOME: home.path } })).code).toBe(0);

  appendFileSync(config, `\n[mcp.every]\n${marking("every")}`);
  const unapproved = await hey(home.path);
  expect(unapproved.code).toBe(0);
  expect(unapproved.stdout).not.toContain("no MCP servers in use");
  expect(unapproved.stdout).toStartWith(`every: not started · not approved yet: start hey to approve it\n  in ${config}\n`);

  writeFileSync(join(project, ".hey", "config.toml"), `[mcp.proj]\n${marking("proj")}`);
  writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { fromjson: { command: "/bin/sh", args: ["-c", `echo fromjson >> ${mark}`] } } }));
  const untrusted = await hey(project);
  expect(untrusted.code).toBe(0);
  expect(untrusted.stdout).toStartWith(
    [
      "every: not started · not approved yet: start hey to approve it",
      `  in ${config}`,
      "proj: not started · in an untrusted project's config: hey trust (--approve for one run)",
      `  in ${join(project, ".hey", "config.toml")}`,
      "fromjson: not started · in an untrusted project's config: hey trust (--approve for one run)",
      `  in ${join(project, ".mcp.json")}`,
      "",
    ].join("\n"),
  );
  expect(untrusted.stdout).not.toContain("no MCP servers in use");
  expect(existsSync(mark)).toBe(false);
});

test("hey -p tells the model a server it added waits for the user's approval, and a call to its tool says why it is unknown", async () => {
  const m = model((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: "done" };
    return textOf(last).includes("use it") ? { calls: [["say_hi", {}]] } : { text: "hello" };
  });
  const config = writeUserConfig(home.path, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n`);
  const hey = (args: string[]) => runHey(args, { cwd: home.path, env: { HOME: home.path } });
  expect((await hey(["-p", "hi"])).code).toBe(0); // records the user's file as approved
  const before = m.requests.length;
  // what the model of that run would have written
  appendFileSync(config, `\n[mcp.newsrv]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "ok", "hi", "say_hi"]\n`);

  const run = await hey(["-c", "-p", "now use it"]);
  expect(run.code).toBe(0);
  const [first, second] = m.requests.slice(before);
  const note =
    "[hey: MCP server newsrv (~/.config/hey/config.toml) is not started: the user has not approved it yet; they approve it by starting hey at a terminal. Do not change its config for this.]";
  expect(textOf(first!.messages.at(-1))).toContain(note);
  expect(resultText(second!.messages.at(-1))).toEndWith(
    "MCP server newsrv (not approved yet: start hey to approve it) is not started, so its tools are unknown.",
  );
  expect(resultText(second!.messages.at(-1))).toStartWith('unknown tool "say_hi"; available: bash,');
  expect(JSON.stringify(second!.messages)).not.toContain(note); // said once, as a /reload's note is
  expect(second!.messages[0]).toEqual(first!.messages[0]!); // the system prompt is the same: the note rode in the message
});

test("a server whose approved table was changed, not approved yet, is named as not started: by hey mcp, to the model, to its mcp__ entries", async () => {
  const m = model((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: "done" };
    return textOf(last).includes("use it") ? { calls: [["only_a", {}]] } : { text: "hello" };
  });
  const base = `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[permission]\nallow = ["mcp__a", "only_a", "read_file"]\n`;
  const server = (env: string) =>
    `\n[mcp.a]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "ok", "a", "only_a"]\nenv = { X = "${env}" }\n`;
  const config = writeUserConfig(home.path, base + server("1"));
  const hey = (args: string[]) => runHey(args, { cwd: home.path, env: { HOME: home.path } });
  expect((await hey(["-p", "hi"])).code).toBe(0); // records the user's file, server a included, as approved
  writeFileSync(config, base + server("2")); // only its env changed

  const listed = await hey(["mcp"]);
  expect(listed.stdout).toStartWith(
    `a: not started · changed, not approved yet: start hey to approve it (hey keeps only a fingerprint of the approved table)\n  in ${config}\n`,
  );
  const before = m.requests.length;
  const run = await hey(["-c", "-p", "now use it"]);
  expect(run.code).toBe(0);
  expect(run.stderr).not.toContain("names no MCP server"); // mcp__a names a server of this configuration
  expect(run.stderr).toContain("the rest of the file is used; a changed MCP server does not start until its change is approved");
  const [, second] = m.requests.slice(before);
  expect(resultText(second!.messages.at(-1))).toContain("MCP server a (changed, not approved yet: start hey to approve it");
});
