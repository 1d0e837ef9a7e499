// /model at the prompt: a model name is one word; anything else is refused and switches nothing.
// /compact says it once.
import { expect, test } from "bun:test";
import type { Agent } from "../../src/agent.ts";
import { ConfigError } from "../../src/config/settings.ts";
import { places } from "../../src/fs/places.ts";
import { completions, runCommand, type CommandContext } from "../../src/ui/commands.ts";
import { endpointLists } from "../../src/endpoint-lists.ts";
import { until } from "../helpers/wait.ts";
import { createTerminalOutput, type TerminalOutput } from "../../src/ui/terminal.ts";

function context(): { ctx: CommandContext; switched: string[] } {
  const switched: string[] = [];
  const settings = { model: { provider: "mock", model: "m" } };
  const ctx = {
    agent: { settings } as unknown as Agent,
    providers: () => [],
    signal: new AbortController().signal,
    terminal: undefined,
    switchModel: async (spec: string) => void switched.push(spec),
    reload: async () => ({ ok: true, changes: [], errors: [], warnings: [] }),
    mcpStatus: async () => "",
    redact: (text: string) => text,
    here: places({}, "/h", "/p", "linux"),
  };
  return { ctx, switched };
}

test.each(["/model gpt 4o", "/model selection is broken, fix it", "/model  a\tb"])("%p is refused, naming the form", async (line) => {
  const { ctx, switched } = context();
  const r = await runCommand(line, ctx);
  expect(r.ok).toBe(false);
  expect(r.text).toStartWith("hey: /model takes one model name, as /model [provider/]model; got ");
  expect(switched).toEqual([]);
});

test("a model that cannot be used is refused in /model's words, not -m's, saying the model stays as it was", async () => {
  const { ctx } = context();
  const failing = {
    ...ctx,
    switchModel: async () => {
      throw new ConfigError(
        '-m nosuch/x: unknown provider "nosuch"; known providers: mock (a model whose name has a slash goes after its provider: -m mock/nosuch/x)',
      );
    },
  };
  expect(await runCommand("/model nosuch/x", failing)).toEqual({
    ok: false,
    text: 'hey: /model nosuch/x: unknown provider "nosuch"; known providers: mock (a model whose name has a slash goes after its provider: /model mock/nosuch/x); still mock/m',
  });
});

test("one word switches at the prompt; on its own (one-shot) it is refused, naming -m", async () => {
  const { ctx, switched } = context();
  expect(await runCommand("/model other/x ", ctx)).toEqual({ text: "model: mock/m", ok: true });
  expect(switched).toEqual(["other/x"]);
  const one = await runCommand("/model other/x", { ...ctx, oneShot: true });
  expect(one.ok).toBe(false);
  expect(one.text).toContain("for one run use -m other/x");
  expect(switched).toEqual(["other/x"]);
});

test("/effort LEVEL sets the effort at the prompt; on its own (one-shot) it is refused, naming -t, and nothing is set; /effort alone still shows it", async () => {
  const { ctx } = context();
  const set: (string | undefined)[] = [];
  const agent = { effort: "low", setEffort: (e: string | undefined) => void set.push(e) } as unknown as Agent;
  const one = await runCommand("/effort high", { ...ctx, agent, oneShot: true });
  expect(one).toEqual({
    ok: false,
    text: "hey: /effort high sets the effort of an interactive session only; for one run use -t high (hey -c -t high continues the last session with it)",
  });
  expect(set).toEqual([]);
  expect(await runCommand("/effort", { ...ctx, agent, oneShot: true })).toEqual({ ok: true, text: "effort: low" });
  expect(await runCommand("/effort high", { ...ctx, agent })).toEqual({ ok: true, text: "effort: high" });
  expect(set).toEqual(["high"]);
});

function compactContext(terminal: TerminalOutput | undefined, compacted: boolean): CommandContext {
  const agent = {
    compact: async () => {
      // what compaction reports as it happens: the terminal shows this line
      terminal?.emit({ type: "compaction", kind: "summary", from_id: "a", to_id: "b", summary: "s", tokens_before: 5200, tokens_after: 310 });
      return compacted;
    },
  } as unknown as Agent;
  const never = () => Promise.reject(new Error("not used"));
  return {
    agent,
    signal: new AbortController().signal,
    terminal,
    providers: () => [],
    switchModel: never,
    reload: never,
    mcpStatus: never,
    redact: (text: string) => text,
    here: places({}, "/h", "/p", "linux"),
  };
}

test("/compact on a terminal: one line, the compaction's own (no second line saying the same)", async () => {
  const shown: string[] = [];
  const stream = { write: (t: string) => void shown.push(t), color: false, tty: false };
  const terminal = createTerminalOutput(stream, stream);
  const result = await runCommand("/compact", compactContext(terminal, true));
  const lines = (shown.join("") + (result.text ? result.text + "\n" : "")).trimEnd().split("\n");
  expect(lines).toEqual(["context: summarized older work (~5,200 → ~310 tokens)"]);
});

test("/compact without a terminal (JSON) says it in the command's output; nothing to do is said either way", async () => {
  expect(await runCommand("/compact", compactContext(undefined, true))).toEqual({
    text: "older work summarized; the next request sends the summary instead",
    ok: true,
  });
  expect((await runCommand("/compact", compactContext(undefined, false))).text).toBe("nothing to summarize yet: everything is in the last turns");
});

test("/compact cancelled (Esc, Ctrl-C) while the summary is asked for says so, as other cancels do, and that nothing changed", async () => {
  const abort = new AbortController();
  const agent = {
    compact: (_: string | undefined, signal: AbortSignal) =>
      new Promise((_, reject) => signal.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")))),
  } as unknown as Agent;
  const running = runCommand("/compact", { ...compactContext(undefined, true), agent, signal: abort.signal });
  abort.abort();
  expect(await running).toEqual({ text: "compact: interrupted by user; the conversation is as it was", ok: false });
  // a failure that is no cancel is still the caller's to report
  const failing = { compact: () => Promise.reject(new Error("503 Service Unavailable")) } as unknown as Agent;
  await expect(runCommand("/compact", { ...compactContext(undefined, true), agent: failing })).rejects.toThrow("503 Service Unavailable");
});

test.each(["/usage extra", "/thinking on", "/help me", "/quit now", "/exit please", "/reload all"])(
  "%p: a command that takes no argument refuses one, in one line",
  async (line) => {
    const { ctx } = context();
    const r = await runCommand(line, ctx);
    expect(r).toEqual({
      ok: false,
      text: `hey: ${line.split(" ")[0]} takes no argument; got "${line.split(" ")[1]}" (a message whose first word is a command is that command: reword it to send it to the model)`,
    });
  },
);

test("/mcp takes nothing, login NAME or logout NAME; anything else is refused in one line, and login reaches the sign-in", async () => {
  const { ctx } = context();
  expect(await runCommand("/mcp list", ctx)).toEqual({ ok: false, text: 'hey: /mcp takes nothing (the servers), login NAME or logout NAME; got "list"' });
  expect(await runCommand("/mcp login", ctx)).toEqual({ ok: false, text: 'hey: /mcp takes nothing (the servers), login NAME or logout NAME; got "login"' });
  const asked: string[] = [];
  const withAuth = { ...ctx, mcpAuth: async (verb: string, name: string) => (asked.push(`${verb} ${name}`), { ok: true, text: "done" }) };
  expect(await runCommand("/mcp login github", withAuth)).toEqual({ ok: true, text: "done" });
  expect(await runCommand("/mcp logout github", withAuth)).toEqual({ ok: true, text: "done" });
  expect(asked).toEqual(["login github", "logout github"]);
  // no name: the sign-in is asked which server (it names them), not refused as a wrong word
  expect(await runCommand("/mcp login", withAuth)).toEqual({ ok: true, text: "done" });
  expect(asked.at(-1)).toBe("login ");
});

test("/model lists a provider whose base_url is not approved apart, with how to approve it: it gets no request", async () => {
  const { ctx } = context();
  const provider = (name: string, unapproved?: string) => ({
    name,
    models: ["a"],
    apiKey: "k",
    apiKeyVar: "K",
    baseUrl: "http://h/v1",
    ...(unapproved ? { unapproved } : {}),
  });
  const providers = () => [provider("mock"), provider("fast", "/h/.config/hey/config.toml")] as never;
  expect(await runCommand("/model", { ...ctx, providers })).toEqual({
    ok: true,
    text: "* mock/m\n  mock/a\nswitch with /model PROVIDER/MODEL\nbase_url not approved yet: fast (/reload asks)",
  });
});

test("/model names a provider with a key and no models configured, then lists what its endpoint serves, asked once in the background", async () => {
  const { ctx } = context();
  const gw2 = { name: "gw2", models: [], apiKey: "k", apiKeyVar: "K", baseUrl: "http://127.0.0.1:43701/v1" } as never;
  const providers = () => [{ name: "mock", models: ["m"], apiKey: "k", apiKeyVar: "K", baseUrl: "http://h/v1" }, gw2] as never;
  let answer: (models: string[]) => void = () => {};
  const asked: string[] = [];
  const lists = endpointLists((p) => {
    asked.push(p.name);
    return new Promise((resolve) => (answer = resolve));
  });
  const withList = { ...ctx, providers, listed: lists.of };
  // said at once, never waiting on the endpoint: the provider, and how to name its model (it was missing from the list)
  expect((await runCommand("/model", withList)).text).toBe(
    "* mock/m\n  gw2/… (no models configured: /model gw2/MODEL takes any model its endpoint serves)\nswitch with /model PROVIDER/MODEL",
  );
  expect(completions("/model gw2/", { cwd: "/", providers: providers(), skills: [], remoteServers: [], listed: lists.of })).toEqual([]);
  answer(["gpt-4.1", "deepseek-chat"]);
  await until(() => lists.of(gw2) !== undefined, "the endpoint's list");
  expect((await runCommand("/model", withList)).text).toBe("* mock/m\n  gw2/gpt-4.1\n  gw2/deepseek-chat\nswitch with /model PROVIDER/MODEL");
  expect(completions("/model gw2/", { cwd: "/", providers: providers(), skills: [], remoteServers: [], listed: lists.of })).toEqual([
    "gw2/gpt-4.1",
    "gw2/deepseek-chat",
  ]);
  expect(asked).toEqual(["gw2"]); // once for the run
});

test("/resume with none picked (hey --resume, then Enter) says a new session goes on; later in a conversation it says nothing", async () => {
  const { ctx } = context();
  const none = async () => undefined;
  const fresh = { ...ctx, agent: { ...ctx.agent, messages: [] } as unknown as Agent, pickSession: none };
  expect(await runCommand("/resume", fresh)).toMatchObject({ text: "no session resumed: this is a new session (/resume picks one)" });
  const talked = { ...ctx, agent: { ...ctx.agent, messages: [{ role: "user", content: "hi" }] } as unknown as Agent, pickSession: none };
  expect((await runCommand("/resume", talked)).text).toBe("");
});
