// Entry point: argv → config → wire → one-shot run (or the REPL). Only the flag parser is loaded
// eagerly, so `hey --version` and `hey --help` start as fast as a hello-world binary; even where
// hey's files are (here.ts, with node:fs, node:os and node:path) is loaded after the flags.
import { EXIT, HELP, parseCli, type PEER_MCP_VERBS, UsageError, type CliArgs } from "./cli.ts";
import { closest } from "./config/suggest.ts";
import type { Places } from "./fs/places.ts";
import { outputLost } from "./ui/output-lost.ts";
import { guardUnfinishedExit } from "./ui/signals.ts";
import { syncsDone } from "./sessions/background-sync.ts";
import { drainAll, writeFailure, writer } from "./ui/term.ts";
import { versionLine } from "./upgrade/build-info.ts";

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "upgrade") {
    const { upgradeCommand } = await import("./upgrade/command.ts");
    return upgradeCommand(argv.slice(1));
  }
  if (argv[0] === "mcp" && isMcpCommand(argv.slice(1))) {
    const { mcpCommand } = await import("./mcp-command.ts");
    return mcpCommand(argv.slice(1), await here());
  }
  const typo = argv[0] === "mcp" ? mcpTypo(argv.slice(1)) : undefined;
  if (typo) return fail(typo, EXIT.usage, argv, "usage");
  if (argv[0] === "trust") {
    const [{ isTrustCommand, trustCommand }, where] = await Promise.all([import("./trust/command.ts"), import("./here.ts")]);
    if (isTrustCommand(argv.slice(1), where.rootProbe.isDir)) return trustCommand(argv.slice(1), where.here(), where.rootProbe);
  }
  // `hey skills [list|ls] [--config FILE] [--approve]`: the skills as /skills lists them (a one-shot run of it)
  if (argv[0] === "skills") {
    const line = skillsLine(argv.slice(1));
    if (line === "usage") return print(SKILLS_USAGE, EXIT.ok);
    if (!Array.isArray(line) && typeof line === "object") {
      writer(2).write(`hey skills: ${line.error}\n${SKILLS_USAGE}`);
      return EXIT.usage;
    }
    if (line !== "prompt") {
      const [{ run }, at] = await Promise.all([import("./run.ts"), here()]);
      return run(parseCli([...line, "-p", "/skills"]), at);
    }
  }
  if (argv[0] === "doctor") {
    const { doctorCommand } = await import("./doctor/command.ts");
    return doctorCommand(argv.slice(1), await here());
  }
  let args: CliArgs;
  try {
    args = parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) return fail(e.message, EXIT.usage, argv, "usage");
    throw e;
  }
  if (args.help || args.version) {
    const text = args.help ? HELP : versionLine() + "\n";
    if (args.run.output !== "json") return print(text, EXIT.ok);
    // one JSON object per line and nothing else, ending with `done`, as every JSON run (docs/json-events.md)
    const { doneEvent } = await import("./ui/json.ts");
    const name = args.help ? "--help" : "--version";
    return print(`${JSON.stringify({ type: "command", name, ok: true, output: text.trimEnd() })}\n${JSON.stringify(doneEvent("end"))}\n`, EXIT.ok);
  }
  const [{ run }, at] = await Promise.all([import("./run.ts"), here(true)]); // what its start-up looks at is shared until run.ts says it started
  return run(args, at);
}

const SKILLS_USAGE =
  "usage: hey skills [list] [--config FILE] [--approve]\n  lists the skills as /skills does: each with its folder, its description's start and whether the model sees it\n";

/**
 * What `hey skills REST` is: its flags (to run /skills with; `list` and `ls` are the same), its
 * usage (`--help`, or `help` alone), a stray word refused (`hey skills foo`, `hey skills list all`),
 * or a prompt — a message of two words or more after it (`hey skills for a rust repo: write one`,
 * `hey skills help me write one`), as after `hey mcp list`.
 */
function skillsLine(rest: string[]): string[] | "usage" | "prompt" | { error: string } {
  if (rest.includes("--help") || rest.includes("-h")) return "usage";
  const flags = rest[0] === "list" || rest[0] === "ls" ? rest.slice(1) : rest;
  let words: string[];
  try {
    words = messageWords(flags);
  } catch (e) {
    if (e instanceof UsageError) return { error: e.message };
    throw e;
  }
  if (words.length === 0) return flags;
  if (words.length === 1 && words[0] === "help") return "usage";
  const asPrompt = `(to send it as a prompt: hey -p "skills ${rest.join(" ")}")`;
  return words.length === 1 ? { error: `unknown argument ${JSON.stringify(words[0])}: hey skills takes flags only ${asPrompt}` } : "prompt";
}

/**
 * `hey mcp` alone or with its flags (`hey mcp --config FILE`), `hey mcp list` (Claude Code's and
 * Codex's word for it, or `ls`) with at most one stray word the command refuses, `hey mcp help`
 * with at most the word it is asked about, or a subcommand; any other `hey mcp …` is a prompt
 * (`hey mcp help me add the github server`).
 */
function isMcpCommand(rest: string[]): boolean {
  const [verb] = rest;
  if (verb === undefined || verb.startsWith("-")) return true;
  // one word after it is a slip the command refuses (`hey mcp list servers`) or asks help on (`hey mcp help login`); more are a prompt
  if (verb === "list" || verb === "ls" || verb === "help") {
    try {
      return messageWords(rest.slice(1)).length <= 1;
    } catch {
      return true; // a flag it does not take: refused with its usage
    }
  }
  return verb === "login" || verb === "logout";
}

/**
 * The words of a message `args` hold besides their flags; throws the UsageError of a flag
 * hey does not take.
 */
function messageWords(args: string[]): string[] {
  return parseCli(args, "command").message.split(/\s+/).filter(Boolean);
}

/**
 * `hey mcp lst`, `hey mcp logni github`: a word a letter or two from a subcommand, with at most one
 * word after it, is a typo (an error that says so), not a prompt sent to the model.
 */
function mcpTypo(rest: string[]): string | undefined {
  const [verb, ...more] = rest;
  const asPrompt = `(to send it as a prompt: hey -p "mcp ${rest.join(" ")}")`;
  const instead = verb !== undefined && Object.hasOwn(PEER_VERBS, verb) ? PEER_VERBS[verb as keyof typeof PEER_VERBS] : undefined;
  const table = verb === "add" ? tableFor(more) : "";
  if (instead) return `hey has no command hey mcp ${verb}: ${instead} ${asPrompt}${table && `; this one:\n${table}`}`;
  const meant = verb === undefined || more.length > 1 ? undefined : closest(verb, ["list", "login", "logout"]);
  return meant && `unknown command hey mcp ${verb}; did you mean hey mcp ${meant}? ${asPrompt}`;
}

/** Claude Code's and Codex's `mcp` subcommands, and what does it in hey: its config, not a command. */
const ADD =
  'add an [mcp.NAME] table (command = "npx" and args = [...], or url = "https://...") to ~/.config/hey/config.toml, or the server to the project\'s .mcp.json; a running hey takes it at /reload';
const PEER_VERBS: Record<(typeof PEER_MCP_VERBS)[number], string> = {
  add: ADD,
  "add-json": ADD,
  "add-from-claude-desktop": ADD,
  remove: "delete the server's [mcp.NAME] table from ~/.config/hey/config.toml (or set enabled = false in it); a running hey takes it at /reload",
  get: "hey mcp lists each server with its state and tools",
};

/** `hey mcp add NAME -- COMMAND ARGS…` or `… NAME URL` (Codex's and Claude Code's forms): the table to write, or "". */
function tableFor(words: string[]): string {
  const [name, ...after] = words;
  if (!name || !/^[\w-]+$/.test(name)) return "";
  const q = (w: string) => JSON.stringify(w);
  if (after.length === 1 && /^https?:\/\//.test(after[0]!)) return `[mcp.${name}]\nurl = ${q(after[0]!)}`;
  if (after[0] !== "--" || after.length < 2) return "";
  const [command, ...args] = after.slice(1);
  return `[mcp.${name}]\ncommand = ${q(command!)}${args.length ? `\nargs = [${args.map(q).join(", ")}]` : ""}`;
}

/** Where hey's files are and which project it is in (here.ts); after the flags, so `--version` never pays for it. */
async function here(starting = false): Promise<Places> {
  const at = await import("./here.ts");
  if (starting) at.startProbing();
  return at.here();
}

function print(text: string, code: number): number {
  writer(1).write(text);
  return code;
}

/** The message on stderr; with `--output json` also an `error` and a `done` event on stdout. */
async function fail(message: string, code: number, argv: string[], kind: "usage" | "internal"): Promise<number> {
  writer(2).write(`hey: ${message}\n`);
  if (jsonOutput(argv)) {
    const { failureLines } = await import("./ui/json.ts"); // not on the way of a normal start
    writer(1).write(failureLines(kind, message));
  }
  return code;
}

/**
 * Exits once stdout and stderr have drained, so piped output is never cut short. A command whose
 * output could not be written (`hey --help > /dev/full`, `hey -p /usage | true`) did not succeed:
 * it exits as a one-shot run does then (ui/output-lost.ts), 1 saying why, or 141.
 */
async function exit(code: number): Promise<never> {
  await syncsDone(); // a session's last fsync: a disk that failed it is said
  ending();
  await drainAll();
  const error = code === EXIT.ok ? writeFailure(1) : undefined;
  const failed = error === undefined ? undefined : outputLost(error, "the output");
  if (failed && !failed.pipe) writer(2).write(`hey: ${failed.reason}\n`);
  process.exit(failed?.code ?? code);
}

function jsonOutput(argv: string[]): boolean {
  return argv.some((a, i) => a === "--output=json" || (a === "--output" && argv[i + 1] === "json"));
}

const argv = process.argv.slice(2);
// a JSON reader is told too, with an `error` and a `done` event: loaded now, as the exit that needs them can wait for nothing
let jsonLines: ((message: string) => string) | undefined;
if (jsonOutput(argv)) void import("./ui/json.ts").then((json) => (jsonLines = (message) => json.failureLines("internal", message)));
const ending = guardUnfinishedExit(
  "internal error: the run stopped before it had finished (hey's runtime let go of work still pending); the rest of it was not done",
  (message) => jsonLines?.(message),
);
main(argv).then(exit, async (e: unknown) => {
  await exit(await fail(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, EXIT.runtime, argv, "internal"));
});
