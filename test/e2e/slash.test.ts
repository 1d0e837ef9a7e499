// Slash commands from the command line (issue 10 item 5, SPEC §24): a line is a command only when
// its first word is a known command; an unknown `/word` alone exits 2 and sends nothing; any other
// text that starts with `/` is a prompt. A refused command exits 2; in JSON its output is an event.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { lastUserText, startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { lineKind, readsOnly } from "../../src/ui/slash.ts";

let model: ModelServer;
let work: ReturnType<typeof tempDir>;
beforeAll(() => {
  model = startModelServer((req) => ({ text: `you said: ${lastUserText(req)}` }));
  work = tempDir();
});
afterAll(() => {
  model.stop();
  work.remove();
});
const hey = (args: string[]) => runHey(["--base-url", model.baseUrl, "-m", "m", ...args], { cwd: work.path });

test("a message that starts with a path is a prompt, sent to the model", async () => {
  const run = await hey(["-p", "/etc/hosts is weird, why?"]);
  expect(run).toMatchObject({ code: 0, stdout: "you said: /etc/hosts is weird, why?\n" });
  const alone = await hey(["-p", "/etc/hosts"]);
  expect(alone).toMatchObject({ code: 0, stdout: "you said: /etc/hosts\n" });
});

test("an unknown /word alone exits 2 with 'unknown command' and sends nothing", async () => {
  const before = model.requests.length;
  const run = await hey(["-p", "/frobnicate"]);
  expect(run).toMatchObject({ code: 2, stdout: "" });
  expect(run.stderr).toBe("hey: unknown command /frobnicate (/help lists the commands)\n");
  const json = await hey(["--output", "json", "/frobnicate"]);
  expect(json.code).toBe(2);
  // judged once the skills it may name are loaded, as `/skill:NAME` is: after `session`, whose id names no session
  expect(jsonEvents(json.stdout).map((e) => [e.type, e.kind ?? e.stop_reason])).toEqual([
    ["session", undefined],
    ["error", "usage"],
    ["done", "error"],
  ]);
  expect(model.requests.length).toBe(before);
});

test("a known command runs: its text on stdout, exit 0; refused, on stderr with exit 2", async () => {
  const usage = await hey(["-p", "/usage"]);
  expect(usage.code).toBe(0);
  expect(usage.stdout).toStartWith("session: 0 in");
  const bad = await hey(["-p", "/effort", "loud"]);
  expect(bad).toMatchObject({ code: 2, stdout: "" });
  expect(bad.stderr).toBe("hey: /effort takes one of off, minimal, low, medium, high, xhigh, max\n");
  const extra = await hey(["-p", "/usage extra"]);
  expect(extra).toMatchObject({ code: 2, stdout: "" });
  expect(extra.stderr).toStartWith('hey: /usage takes no argument; got "extra"');
  const resume = await hey(["-p", "/resume"]);
  expect(resume.code).toBe(2);
  expect(resume.stderr).toContain("hey --resume ID");
});

test("in JSON a command's output is a command event, and the run ends with done", async () => {
  const run = await hey(["--output", "json", "/usage"]);
  expect(run.code).toBe(0);
  const events = jsonEvents(run.stdout);
  expect(events.map((e) => e.type)).toEqual(["session", "command", "done"]);
  expect(events[1]).toMatchObject({ type: "command", name: "/usage", ok: true, output: expect.stringMatching(/^session: 0 in/) });
  expect(events[2]).toMatchObject({ type: "done", stop_reason: "end", turns: 0 });
  const bad = await hey(["--output", "json", "/effort", "loud"]);
  expect(bad.code).toBe(2);
  expect(
    jsonEvents(bad.stdout)
      .slice(1)
      .map((e) => [e.type, e.ok ?? e.kind ?? e.stop_reason]),
  ).toEqual([
    ["command", false],
    ["error", "usage"], // a stop other than end follows an error that says why
    ["done", "error"],
  ]);
  const error = jsonEvents(bad.stdout).find((e) => e.type === "error")!;
  expect(String(error.message)).toStartWith("/effort"); // the command's own words, once (no "hey: hey:")
  expect(bad.stderr).toBe(`hey: ${error.message}\n`); // the one-line message on stderr, as for every error
});

test("lineKind: known first word, skill, unknown /word alone, else a prompt", () => {
  expect(lineKind("/usage")).toBe("command");
  expect(lineKind("  /model openai/gpt-5 ")).toBe("command");
  expect(lineKind("/help me with this")).toBe("command");
  expect(lineKind("/skill:notes write it down")).toBe("skill");
  expect(lineKind("/frobnicate")).toBe("unknown");
  expect(lineKind("/use")).toBe("unknown");
  expect(lineKind("/etc/hosts is weird, why?")).toBe("prompt");
  expect(lineKind("/etc/hosts")).toBe("prompt");
  expect(lineKind("/frobnicate the parser")).toBe("prompt");
  expect(lineKind("/usage2")).toBe("unknown");
  expect(lineKind("fix /usage")).toBe("prompt");
});

test("--sessions in JSON: a command event with the listing, then done", async () => {
  const run = await hey(["--sessions", "--output", "json"]);
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout)).toEqual([
    { type: "command", name: "--sessions", ok: true, output: "No sessions yet.", scope: "directory", sessions: [] },
    {
      type: "done",
      stop_reason: "end",
      turns: 0,
      usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 },
    },
  ]);
});

test("/model with words after it is that command, refused: a model name has no spaces; in one-shot /model NAME points at -m", async () => {
  const before = model.requests.length;
  const prose = await hey(["-p", "/model selection is broken, fix it"]);
  expect(prose).toMatchObject({ code: 2, stdout: "" });
  expect(prose.stderr).toStartWith('hey: /model takes one model name, as /model [provider/]model; got "selection is broken, fix it"');
  expect((await hey(["-p", "/model gpt 4o"])).code).toBe(2);
  // one-shot: a switch nothing would follow (and no session would keep) is refused, naming -m
  const one = await hey(["-p", "/model m/zzz"]);
  expect(one).toMatchObject({ code: 2, stdout: "" });
  expect(one.stderr).toBe(
    "hey: /model m/zzz switches the model of an interactive session only; for one run use -m m/zzz (hey -c -m m/zzz continues the last session with it)\n",
  );
  const list = await hey(["-p", "/model"]);
  expect(list.code).toBe(0);
  expect(list.stdout).toContain("* cli/m");
  expect(model.requests.length).toBe(before);
});

test("readsOnly: the commands `hey -c` runs without the session's lock (they change nothing of it); those that write or delete take it", () => {
  for (const line of ["/usage", "/help", "/mcp", "/sessions", "/sessions all", " /model ", "/effort", "/last", "/thinking"])
    expect([line, readsOnly(line)]).toEqual([line, true]);
  for (const line of [
    "/compact",
    "/compact keep the paths",
    "/sessions prune 30d",
    "/sessions prune keep 2",
    "/model a/b",
    "/effort high",
    "/reload",
    "/mcp login x",
    "/clear",
  ])
    expect([line, readsOnly(line)]).toEqual([line, false]);
});
