// Every one-shot line that sends the conversation to the model — a prompt, `/compact`'s summary
// request (x132), a skill's message `/skill:NAME …`, an MCP server's prompt `/mcp:SERVER:PROMPT`
// (x133) — on a session whose provider has no key now is refused as a `-p` prompt on it is: the
// refusal said once, exit 2, JSON kind `config` — a configuration to fix, not a request the vendor
// refused. Nothing is sent: the one provider the run has is that keyless vendor.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../../src/kernel/ir.ts";
import { toLine } from "../../src/sessions/format.ts";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { EVERYTHING_SERVER } from "../helpers/mcp.ts";
import { writeSession } from "./repl-helpers.ts";

let work: ReturnType<typeof tempDir>;
beforeEach(() => {
  work = tempDir("hey-compact-no-key-");
});
afterEach(() => work.remove());

/** `hey -c ARGS` in a directory whose last session used openai/gpt-5.5, with OPENAI_API_KEY unset */
function resume(args: string[]) {
  const cwd = realpathSync(work.path);
  const state = join(cwd, "state");
  const config = join(cwd, "config");
  mkdirSync(join(config, "hey"), { recursive: true });
  // a server with prompts (server-everything's simple-prompt), and a skill of the user's
  const server = `[mcp.everything]\ncommand = "node"\nargs = [${JSON.stringify(EVERYTHING_SERVER)}, "stdio"]\n`;
  writeFileSync(join(config, "hey", "config.toml"), `[agent]\nbudget_tokens = 3000\n\n[provider.openai]\nmodels = ["gpt-5.5"]\n\n${server}`);
  mkdirSync(join(config, "hey", "skills", "review"), { recursive: true });
  writeFileSync(join(config, "hey", "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Review code.\n---\nReview carefully.\n");
  const id = writeSession(state, cwd, "an earlier question", "an earlier answer");
  const file = join(state, "hey", "sessions", `${id}.jsonl`);
  // older turns worth summarizing, so /compact would ask the model for a summary
  for (let i = 0; i < 6; i++)
    for (const role of ["user", "assistant"] as const)
      appendFileSync(file, toLine({ type: "message", message: { id: newId(), role, content: [{ type: "text", text: `turn ${i}: ${"x".repeat(3000)}` }] } }));
  appendFileSync(file, toLine({ type: "model", id: newId(), provider: "openai", model: "gpt-5.5" }));
  return runHey(["-c", ...args], { cwd, env: { XDG_STATE_HOME: state, XDG_CONFIG_HOME: config } });
}

const REFUSAL = "this session last used openai/gpt-5.5, and OPENAI_API_KEY is not set, so hey sends it nothing";

test.each([["/compact"], ["hello"], ["/skill:review the last change"], ["/mcp:everything:simple-prompt"]])(
  "hey -c -p %s: the refusal once on stderr, exit 2",
  async (line) => {
    const run = await resume(["-p", line]);
    expect(run.code).toBe(2);
    expect(run.stderr.split(REFUSAL).length - 1).toBe(1);
    expect(run.stdout).toBe("");
  },
);

test.each([["/compact"], ["/skill:review the last change"]])("in JSON, %s on it ends with an error of kind config, as a prompt does", async (line) => {
  const run = await resume(["--output", "json", line]);
  expect(run.code).toBe(2);
  const errors = jsonEvents(run.stdout).filter((e) => e.type === "error");
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject({ kind: "config" });
  expect(String(errors[0]?.message)).toContain(REFUSAL);
});
