// One run of hey after the flags are parsed: configuration, the prompt, the provider and the
// outputs are put together here, then the loop runs once (`-p`) or the REPL starts.
import { homedir, platform } from "node:os";
import { EXIT, UsageError, type CliArgs } from "./cli.ts";
import { loadConfig } from "./config.ts";
import { newId, userMessage } from "./kernel/ir.ts";
import { runLoop, type RunResult } from "./kernel/loop.ts";
import { fanOut, type Output } from "./kernel/output.ts";
import { proxiedFetch } from "./net/fetch.ts";
import { ConfigError, SETUP_HINT, type Settings } from "./pure/config.ts";
import { buildSystemPrompt } from "./pure/system-prompt.ts";
import { expandPrompt, MentionError } from "./prompt-input.ts";
import corePrompt from "./prompts/system.md" with { type: "text" };
import { createJsonOutput } from "./ui/json.ts";
import { createTerminalOutput } from "./ui/terminal.ts";
import { createProvider } from "./wire.ts";

export async function run(args: CliArgs): Promise<number> {
  const env = process.env;
  const cwd = process.cwd();
  const stdinIsTty = Boolean(process.stdin.isTTY);
  const stdin = stdinIsTty ? undefined : await Bun.stdin.text();
  const oneShot = args.print || !stdinIsTty;

  let settings: Settings;
  let prompt: string;
  try {
    if (oneShot && args.message.trim() === "" && (stdin ?? "").trim() === "")
      throw new UsageError("no message: give it as arguments (hey -p \"…\") or on stdin");
    const loaded = loadConfig({
      env,
      cwd,
      configFile: args.config,
      trustProject: args.approve,
      flags: { model: args.model, baseUrl: args.baseUrl, protocol: args.protocol, apiKey: args.apiKey, effort: args.effort, maxTurns: args.maxTurns, proxy: args.proxy },
    });
    settings = loaded.settings;
    for (const w of loaded.warnings) warn(w);
    if (loaded.skipped) warn(`${loaded.skipped} not loaded: this project is not trusted (use --approve)`);
    prompt = expandPrompt(args.message, { cwd, home: env.HOME ?? homedir(), required: args.files, stdin });
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError || e instanceof MentionError) return fail(e.message, EXIT.usage);
    throw e;
  }

  if (!oneShot) return fail("the interactive prompt is not available yet; use -p \"message\"", EXIT.usage);

  const output = createOutput(args.output, env);
  const sessionId = newId();
  output.emit({ type: "session", id: sessionId, provider: settings.provider.name, model: settings.model, cwd });

  const fetchImpl = proxiedFetch({ cli: args.proxy, config: settings.proxy, env });
  let provider;
  try {
    provider = await createProvider(settings.provider, settings.model, settings.effort, fetchImpl);
  } catch (e) {
    if (e instanceof ConfigError) {
      output.emit({ type: "error", kind: "config", message: e.message });
      return EXIT.usage;
    }
    throw e;
  }

  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(EXIT.interrupted); // second Ctrl-C: leave now
    abort.abort();
  };
  process.on("SIGINT", onSigint);

  const messages = [userMessage(prompt)];
  const system = buildSystemPrompt({ core: corePrompt, cwd, date: new Date().toISOString().slice(0, 10), os: platform(), shell: "sh" });
  let result: RunResult;
  try {
    result = await runLoop(messages, {
      provider,
      tools: [],
      output,
      system: () => system,
      signal: abort.signal,
      cwd,
      limits: { maxTurns: settings.agent.maxTurns, parallelTools: settings.agent.parallelTools },
      retry: settings.retry,
      permission: () => undefined,
      clock: { sleep, random: Math.random },
    });
  } finally {
    process.off("SIGINT", onSigint);
  }
  if (result.stop === "error" && settings.provider.preset && settings.provider.name === "ollama") warn(SETUP_HINT);
  return exitCode(result);
}

function exitCode(result: RunResult): number {
  switch (result.stop) {
    case "end":
      return EXIT.ok;
    case "max_turns":
      return EXIT.maxTurns;
    case "interrupted":
      return EXIT.interrupted;
    case "error":
    case "length":
      return EXIT.runtime;
  }
}

/** Waits `ms`; rejects at once when `signal` aborts (a Ctrl-C during a retry wait). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

function createOutput(kind: "text" | "json", env: NodeJS.ProcessEnv): Output {
  const write = (s: NodeJS.WriteStream) => (text: string) => void s.write(text);
  if (kind === "json") return fanOut([createJsonOutput(write(process.stdout)), errorsTo(process.stderr)]);
  const noColor = Boolean(env.NO_COLOR);
  const stream = (s: NodeJS.WriteStream) => ({ write: write(s), color: Boolean(s.isTTY) && !noColor });
  return createTerminalOutput(stream(process.stdout), stream(process.stderr));
}

/** In JSON mode a one-line human-readable error also goes to stderr (SPEC §18). */
function errorsTo(stream: NodeJS.WriteStream): Output {
  return { emit: (e) => void (e.type === "error" && stream.write(`hey: ${e.message}\n`)) };
}

function warn(message: string): void {
  process.stderr.write(`hey: ${message}\n`);
}

function fail(message: string, code: number): number {
  process.stderr.write(`hey: ${message}\n`);
  return code;
}
