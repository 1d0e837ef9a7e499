// More MCP tools than a vendor's API takes in one request: Gemini's refuses over 512 function
// declarations with a 400 on every request. hey sends its own tools and the servers' in config
// order up to the cap, says once (stderr, and a `notice` in --output json) which servers' tools
// were left out and how to choose; a local server on the OpenAI protocol, which takes more than
// OpenAI's 128, gets every tool and no warning. Through dist/hey, with our fake servers.
import { expect, setDefaultTimeout, test } from "bun:test";
import { ensureBinary, jsonEvents, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, fileReplayServer, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { baseUrlFor, textReply } from "../helpers/protocol-streams.ts";
import { jsonReply } from "../helpers/replay-server.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-mcp-cap-");
const model = eachModelServers();
const replay = fileReplayServer();
const server = (name: string, n: number) => {
  const tools = Array.from({ length: n }, (_, i) => `${name}_${i}`).join(",");
  return `\n[mcp.${name}]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "ok", name, tools])}\n`;
};
const SIX = ["s1", "s2", "s3", "s4", "s5", "s6"];

test("over Gemini's 512: sent with hey's own and the first MCP tools in config order up to 512, the rest named once, in JSON too", async () => {
  await ensureBinary();
  replay.enqueue(textReply("google", "fine"));
  const start = replay.requests.length;
  writeUserConfig(
    home.path,
    `[default]\nprovider = "gem"\nmodel = "gemini-x"\n\n[provider.gem]\nprotocol = "google"\nbase_url = "${baseUrlFor("google", replay.url)}"\napi_key = "k"\nmodels = ["gemini-x"]\n\n[mcp]\nstartup_wait_ms = 30000\ndefer_tools = "never"\n` +
      SIX.map((s) => server(s, 90)).join(""),
  );
  const run = await runHey(["-p", "hello", "--output", "json"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  expect(run.code).toBe(0);
  const body = replay.requests[start]!.body as { tools: { functionDeclarations: { name: string }[] }[] };
  const names = body.tools.flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name);
  expect(names).toHaveLength(512);
  expect(names).toContain("s6_5"); // 6 own + 5 × 90 + 56 of s6's
  expect(names).toContain("s6_55");
  expect(names).not.toContain("s6_56");
  const why =
    "hey's own 6 tools and 540 from MCP servers make 546, over the 512 Gemini's API takes in one request (it refuses any request over it): left out 34 of s6's 90 tools " +
    "(kept: hey's own, the tools this conversation called, then the others in config order); choose with tools = [...] (the ones to keep) or exclude_tools = [...] in [mcp.NAME], or enabled = false for a server not needed here";
  expect(jsonEvents(run.stdout).filter((e) => e.type === "notice")).toEqual([{ type: "notice", message: why }]);

  replay.enqueue(textReply("google", "fine"));
  const text = await runHey(["-p", "hello"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  expect(text.code).toBe(0);
  expect(text.stderr.split("\n").filter((l) => l.includes(why))).toHaveLength(1);
});

test("deferred (defer_tools = auto, the default), the same 540 tools send only hey's own and find_tools: nothing is over Gemini's 512", async () => {
  await ensureBinary();
  replay.enqueue(textReply("google", "fine"));
  const start = replay.requests.length;
  writeUserConfig(
    home.path,
    `[default]\nprovider = "gem"\nmodel = "gemini-x"\n\n[provider.gem]\nprotocol = "google"\nbase_url = "${baseUrlFor("google", replay.url)}"\napi_key = "k"\nmodels = ["gemini-x"]\n\n[mcp]\nstartup_wait_ms = 30000\n` +
      SIX.map((s) => server(s, 90)).join(""),
  );
  const run = await runHey(["-p", "hello", "--output", "json"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  expect(run.code).toBe(0);
  const body = replay.requests[start]!.body as { tools: { functionDeclarations: { name: string; description: string }[] }[] };
  const sent = body.tools.flatMap((t) => t.functionDeclarations ?? []);
  expect(sent.map((d) => d.name)).toEqual(["bash", "read_file", "write_file", "edit", "grep", "compress", "find_tools"]);
  expect(sent.at(-1)!.description).toContain("Servers: s1 (90 tools); s2 (90 tools);"); // 540 names: each server with a count
  expect(jsonEvents(run.stdout).filter((e) => e.type === "notice")).toEqual([]);
});

test("a local server on the OpenAI protocol (no cap of OpenAI's): every one of 306 tools, no warning", async () => {
  const m = model(() => ({ text: "fine" }));
  const fifteen = Array.from({ length: 15 }, (_, i) => server(`srv${i + 1}`, 20)).join("");
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 30000\ndefer_tools = "never"\n${fifteen}`,
  );
  const run = await runHey(["-p", "hello"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  expect(run.code).toBe(0);
  expect(m.requests[0]!.tools).toHaveLength(306);
  expect(run.stderr).not.toContain("more than the 128");
});

test("Gemini refuses the request over one MCP tool's schema, naming only its place: sent again without that tool, said with its server's exclude_tools line", async () => {
  await ensureBinary();
  const start = replay.requests.length;
  // hey's own 6 tools come first, then weird's echo (6) and nullable_array (7)
  const refusal = {
    error: {
      code: 400,
      message:
        "* GenerateContentRequest.tools[0].function_declarations[7].parameters.properties[languages].items: field predicate failed: $type == Type.ARRAY\n",
      status: "INVALID_ARGUMENT",
    },
  };
  replay.enqueue(jsonReply(400, refusal), textReply("google", "fine"));
  writeUserConfig(
    home.path,
    `[default]\nprovider = "gem"\nmodel = "gemini-x"\n\n[provider.gem]\nprotocol = "google"\nbase_url = "${baseUrlFor("google", replay.url)}"\napi_key = "k"\nmodels = ["gemini-x"]\n\n[mcp]\nstartup_wait_ms = 30000\ndefer_tools = "never"\n` +
      `\n[mcp.weird]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "ok", "weird", "echo,nullable_array"])}\n`,
  );
  const run = await runHey(["-p", "hello"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  expect(run.code).toBe(0);
  const declared = (i: number) =>
    (replay.requests[start + i]!.body as { tools: { functionDeclarations: { name: string }[] }[] }).tools
      .flatMap((t) => t.functionDeclarations)
      .map((d) => d.name);
  expect(declared(0)[7]).toBe("nullable_array");
  expect(declared(1)).not.toContain("nullable_array");
  expect(declared(1)).toContain("echo");
  expect(run.stderr).toContain(
    "the model's API refused the request over the input schema of MCP server weird's tool nullable_array (GenerateContentRequest.tools[0].function_declarations[7].parameters.properties[languages].items: field predicate failed: $type == Type.ARRAY); " +
      'sent again without it, and it is left out for this session. To leave it out for good: exclude_tools = ["nullable_array"] in [mcp.weird]',
  );
  expect(run.stdout).toContain("fine");
});
