// Command-line flags (SPEC §2): parsing, validation and the help text. No I/O.
import type { ConfigFlags } from "./config/settings.ts";
import { codexExec, oneWordCommand } from "./command-words.ts";
import { protocolHint } from "./config/suggest.ts";
import { EFFORTS, PROTOCOLS } from "./kernel/ir.ts";
import pkg from "../package.json" with { type: "json" };
import { OPTIONS, splitArgs, UnknownFlagError, UsageError } from "./cli-args.ts";

export { OPTIONS, UsageError };

export const VERSION: string = pkg.version;

/** Exit codes (SPEC §18). */
export const EXIT = { ok: 0, runtime: 1, usage: 2, maxTurns: 3, interrupted: 130, hangup: 129, quit: 131, pipe: 141, terminated: 143 } as const;
/** The exit code of a run that ended for `stop` (SPEC §18): 0 done, 3 at a limit, 130 interrupted, 1 otherwise. */
export function exitFor(stop: "end" | "length" | "max_turns" | "max_run_tokens" | "interrupted" | "error"): number {
  if (stop === "end") return EXIT.ok;
  if (stop === "max_turns" || stop === "max_run_tokens") return EXIT.maxTurns;
  return stop === "interrupted" ? EXIT.interrupted : EXIT.runtime;
}

const OUTPUTS = ["text", "json"] as const;

/** What the command line chose for a run besides the configuration: wire.ts builds the run with it. */
export interface RunFlags {
  output: (typeof OUTPUTS)[number];
  /** --raw: no bash output filtering */
  raw: boolean;
  /** false with --no-skills */
  skills: boolean;
  /** false with --no-mcp */
  mcp: boolean;
  /** --proxy: above every other proxy setting (net/proxy.ts) */
  proxy?: string;
  /** --plan: start in plan mode (permission/plan-mode.ts) */
  plan?: boolean;
}

/** The command line, parsed: the flags grouped by what takes them, so each part goes where it is used. */
export interface CliArgs {
  print: boolean;
  run: RunFlags;
  /** the flags that take part in configuration (SPEC §3): -m, --base-url, --protocol, --api-key, -t, --max-turns, --max-run-tokens */
  flags: ConfigFlags;
  /** --config FILE */
  config?: string;
  /** --approve: the project's .hey/ is trusted for this run */
  approve: boolean;
  continue: boolean;
  resume?: string;
  /** `--resume` with no ID: at a terminal the REPL opens with `/resume`'s list to pick from */
  pickSession: boolean;
  sessions: boolean;
  /** log every HTTP request and response to a file (HEY_LOG=debug does the same) */
  verbose: boolean;
  /** with --sessions: every directory's sessions, not only this one's */
  all: boolean;
  version: boolean;
  help: boolean;
  /** whole-argument `@path`s, in order, without the `@`: these must exist (one with a space that names nothing is words: spacedArguments) */
  files: string[];
  /** every positional joined by spaces (the `@path`s stay in it as references); "" when none */
  message: string;
}

/** `hey --resume` with a prompt, -p or JSON (nothing to pick with), and what `hey -r` (no such flag) is told. */
export const RESUME_NEEDS_ID =
  "--resume needs a session ID here: hey --sessions lists them (hey -c continues the last one); at a terminal, hey --resume alone picks from a list";

export const HELP = `hey ${VERSION} — a minimal terminal coding agent

Usage: hey [options] [@file ...] [message ...]
       hey upgrade [--check]   replace this binary with the latest signed release;
                               --check only looks: exit 0 up to date, 100 update available
       hey doctor [PROVIDER] [--write]
                               probe the endpoint: network, TLS, auth, streaming, tool
                               calls, quirks; --write records the flags it needs
       hey mcp [list]          list the MCP servers: state, tools, what each costs (/mcp)
       hey mcp login NAME      sign in to the remote MCP server [mcp.NAME] (OAuth, in the
                               browser; the URL is printed too); the token is kept 0600
       hey mcp logout NAME     forget that sign-in
       hey skills              list the skills: folder, description, whether the model sees
                               them; those left out and why (/skills)
       hey trust [DIR]         trust the project (of DIR, default here) after showing what
                               it would run; asks at a terminal. --revoke: stop trusting it

  With no message, hey opens an interactive prompt (/help there lists its commands and
  keys: /undo, /diff, /last, /jobs, /clear, !COMMAND, Ctrl-R, Ctrl-G, Ctrl-Z …); it needs a
  terminal on stdout, so with stdout a file or a pipe a message runs as with -p (no
  message exits 2). Piped stdin is appended to the message in a fenced block and implies
  -p; a message of - alone is read from stdin (hey -p - < task.md). A message starting with - that holds
  no space goes after -- (hey -p -- -fix). @path expands to
  the file's content (an @word that names no file stays as written; a name with spaces
  is @"my notes.txt", as Tab writes it); a name alone that one file in the project has
  (@cli.ts) attaches that file. Each is cut at [input] max_bytes (256 KB).
  A message whose first word is a slash command runs it (hey -c /usage); an unknown
  /word alone exits 2; other text starting with / is a prompt. One word alone that is
  a slip for a command (hey doctr), Codex's hey exec "…", or another agent's flag
  (-C DIR, --json, --add-dir, --image) exits 2 naming hey's way; hey help is this help.

Options:
  -p, --print              run the message to completion, print the answer, exit
      --output text|json   json: one JSON event per line on stdout, always one-shot
                           (default text)
  -m, --model [PROVIDER/]MODEL
                           model to use; PROVIDER names a [provider.NAME] table
                           (-m PROVIDER alone: that provider's default model)
      --fallback-model [PROVIDER/]MODEL
                           go on with this model when the model gives up on a request
                           (rate limits, overloads, a stuck endpoint, a missing model);
                           repeat it or separate names with commas for several, tried
                           in order (also HEY_FALLBACK_MODELS, [default] fallback_models)
  -t, --effort LEVEL       reasoning effort: ${EFFORTS.join("|")}
      --base-url URL       ad-hoc provider at URL (e.g. http://127.0.0.1:11434/v1); needs -m
      --protocol NAME      protocol of --base-url: ${PROTOCOLS.join("|")} (default openai)
      --api-key KEY        API key for this run, for --base-url or the chosen provider
                           (instead of its api_key; default: HEY_API_KEY, else none);
                           every user can read it in ps: prefer HEY_API_KEY=KEY
      --max-turns N        model requests that may call tools per run (default 20);
                           then one more asks for a hand-off (exit 3)
      --max-run-tokens N   stop like --max-turns once the run's input + output tokens pass N
      --proxy URL          proxy for model requests: http://, https://, socks5://, socks5h://
      --config FILE        read this config file after the user and project ones
      --no-mcp             do not start the configured MCP servers (no MCP tools)
      --no-skills          no skills: neither the list nor the skill guide in the prompt
      --raw                do not filter bash output
      --plan               plan mode: the agent reads and searches, changes nothing
                           (in the REPL /plan or Shift+Tab turns it off)
      --approve            trust this project's .hey/config.toml and .mcp.json (as
                           written: their MCP servers too) and skills for this run
  -c, --continue           continue the latest session of this directory (not open in
                           another hey); in one with none, of its project
      --resume [ID]        continue the session ID (or a unique start or end of it);
                           without one, pick it from a list (at a terminal); not with -c
      --sessions [--all]   list this directory's sessions, its project's when it has
                           none (--all: every directory's) and exit; takes no message,
                           -c or --resume
      --verbose            log every request, response and retry to a file in
                           ~/.local/state/hey/logs (also HEY_LOG=debug)
  -v, --version            print the version
  -h, --help               print this help

Project: the nearest directory up to the git root whose .hey/ holds config.toml or skills/,
else the git root, else the nearest holding .hey/, else here. Its .hey/task.md (the hand-off)
is used from any directory below it, and once you trust it (the REPL asks; /trust, /untrust,
hey trust) so are .hey/config.toml, .hey/skills, .agents/skills, .claude/skills and .mcp.json; such files
below the root are not read, and hey says so at start.
Config: ~/.config/hey/config.toml, then the project's .mcp.json and .hey/config.toml, then --config;
HEY_MODEL, HEY_PROVIDER, HEY_BASE_URL (with HEY_PROTOCOL), HEY_API_KEY, HEY_EFFORT,
HEY_MAX_TURNS, HEY_PROXY override files. With no config, OPENAI_API_KEY, ANTHROPIC_API_KEY
(or ANTHROPIC_AUTH_TOKEN), GEMINI_API_KEY (or GOOGLE_API_KEY) or DEEPSEEK_API_KEY select a
provider; otherwise a local Ollama is used (127.0.0.1:11434, or where OLLAMA_HOST says it
listens). OPENAI_BASE_URL, ANTHROPIC_BASE_URL and GOOGLE_GEMINI_BASE_URL move those providers,
as their SDKs do (a table's base_url, HEY_BASE_URL and --base-url win); one set alone, with no
key, picks its provider, sending no key (a local vLLM, LM Studio or llama.cpp server).
ANTHROPIC_MODEL, as in Claude Code, is anthropic's model when -m and the config name none.
On Windows ~ is %USERPROFILE%, whatever HOME says: the config is in ~\\.config\\hey, sessions,
history and logs in ~\\.local\\state\\hey, the cache (ripgrep, bash's full outputs) in
%LOCALAPPDATA%\\hey\\cache.
Rules come from you: a change to [permission], [tools] bash_filter/shell/rg/keep_env,
[mcp], a provider's base_url or [proxy] url that gives the agent more (or sends your
keys elsewhere) is asked about at the interactive prompt (start-up and /reload); -p runs
use what you approved and say so. A project's lists only narrow yours. A hey run by the
agent's bash command (HEY_AGENT_SESSION is set) asks none of these questions. While a list is
set the agent may not write hey's config and trust files, hey's cache, git's own files
(anything in a .git directory, a .git file; ~/.gitconfig, ~/.config/git/config), whose config
and hooks run commands, or the PATH directories' programs; a glob or a run-time word that could
name one counts, and so does a file with other hard links. Claude Code's .claude/settings.json
rules are not applied: hey says so once (and in hey doctor), with the [permission] entries to write.

Prompt: ~/.config/hey/AGENTS.md (else ~/.codex/AGENTS.md or ~/.claude/CLAUDE.md), then AGENTS.md
(or CLAUDE.md, its @imports followed: never a file git ignores or one that holds secrets, such as
.env; or .claude/CLAUDE.md) from the git root down to here; secrets in them are redacted as in
tool results. $CODEX_HOME and $CLAUDE_CONFIG_DIR, when set, stand for ~/.codex and ~/.claude
(here, for skills, and for the files of theirs hey names).
A deeper directory's AGENTS.md comes with the first file tool result under it.
Skills: ~/.claude/skills, ~/.agents/skills, ~/.config/hey/skills, then the project's
.claude/skills, .agents/skills and .hey/skills; /reload re-reads config, skills and AGENTS.md without losing the conversation,
keeps what start-up only warns about a warning, and tells the model what it did; under a list it
asks the start's question about your new or changed skills and AGENTS.md, and a y loads them.
MCP: [mcp.NAME] tables (also Codex's [mcp_servers.NAME] and .mcp.json's mcpServers) start
servers (command = local, url = remote) in the background; their tools join the model's
(tools = [...], exclude_tools = [...] choose which; a name of hey's own becomes
SERVER_NAME); /mcp lists them, /reload starts the new and changed ones (an unchanged one
keeps running); /mcp:SERVER:PROMPT runs a server's prompt, @SERVER:URI attaches a resource.
[permission] entries name an MCP tool as the model sees it or as SERVER_NAME (a deny entry by
its plain name too, on every server); "mcp__SERVER" names all of a server's tools.

Exit codes: 0 done, 1 runtime error (an answer that broke off, or stopped for a reason hey
does not know, too; a model stopped for making one call in 5 turns in a row too; a session -c or --resume names that another hey has open, JSON kind busy: try
again later), 2 usage or config error, 3 max turns or run tokens
reached (the hand-off is in the project's .hey/task.md), 130 interrupted, 143 SIGTERM, 129 SIGHUP,
131 SIGQUIT, 141 the reader of the output went away (| head): the run stops there (stdout
unwritable otherwise, a full disk or closed at start (>&-): 1, saying why).
`;

/** hey's commands of their own (main.ts): only as the first word; after a flag a word is a prompt. */
const SUBCOMMANDS = ["doctor", "upgrade", "mcp", "trust", "skills"];

/** Claude Code's and Codex's `mcp` subcommands that hey has not (main.ts says what does it instead). */
export const PEER_MCP_VERBS = ["add", "add-json", "add-from-claude-desktop", "remove", "get"] as const;

/** What to say when a command of hey's own came after flags (`hey -m x doctor`): it goes first. */
const goesFirst = (sub: string) => `${sub} is a command of hey's own and goes first, before any flag: hey ${sub} …`;

export function parseCli(argv: string[], command?: "command"): CliArgs {
  // a command's own flags and words (`hey doctor lab --bogus`): no prompt, so no advice for one
  const word = command ? undefined : oneWordCommand(argv); // `hey doctr`, `hey sessions`: no prompt anyone means; `hey help`: the help
  if (word === "help") return parseCli(["--help"]);
  if (word) throw new UsageError(word.error);
  const exec = command ? undefined : codexExec(argv); // `hey exec "…"`, as Codex runs one prompt
  if (exec) throw new UsageError(exec);
  let parsed: ReturnType<typeof splitArgs>;
  try {
    parsed = splitArgs(argv);
  } catch (e) {
    // `hey --no-mcp upgrade --check`: the flag is the subcommand's, not hey's
    const sub = SUBCOMMANDS.find((s) => argv.slice(1).includes(s));
    if (e instanceof UsageError && sub && /^unknown flag/.test(e.message)) throw new UsageError(`${e.message}; ${goesFirst(sub)}`);
    if (e instanceof UnknownFlagError) throw new UsageError(e.message + (command ? "" : e.dashes)); // `-fix`, `--version-2`: maybe a message's first word
    throw e;
  }
  const v = parsed.values;
  if (v.all && !v.sessions) throw new UsageError("--all goes with --sessions (hey --sessions --all)");
  const words = parsed.positionals;
  // `hey --output json help`, `hey -p help`: the help, as `hey help` (not with -c or --resume: a message to the session)
  if (words.length === 1 && words[0] === "help" && !v.continue && v.resume === undefined) v.help = true;
  // flags that would each be obeyed with the other one dropped in silence
  if (v.continue && v.resume !== undefined)
    throw new UsageError("-c/--continue and --resume both pick the session to continue: use one (-c: this directory's latest, --resume ID: that one)");
  if (v.sessions && (v.continue || v.resume !== undefined))
    throw new UsageError(`--sessions lists sessions and opens none: drop ${v.continue ? "-c/--continue" : "--resume"}, or run it without --sessions`);
  if (v.sessions && words.length > 0) throw new UsageError("--sessions lists sessions and runs no prompt: run the prompt without --sessions");
  if (v.resume === "" && (v.print || words.length > 0 || v.output === "json")) throw new UsageError(RESUME_NEEDS_ID);
  // `hey -m mock doctor`: one word that is a command of hey's own is not a prompt anyone means
  if (words.length === 1 && SUBCOMMANDS.includes(words[0]!)) throw new UsageError(`${goesFirst(words[0]!)} (a prompt of that one word: add more words)`);
  // `hey --config lab.toml doctor lab`: the command's very words (a provider's name after it), no prompt anyone means
  if (words[0] === "doctor" && words.length === 2 && /^[\w.-]+$/.test(words[1]!))
    throw new UsageError(`${goesFirst(`doctor ${words[1]}`)} (as a prompt: add more words)`);
  // `hey --config f.toml mcp list`: its subcommand's very words (`mcp list`, `mcp login NAME`)
  if (words[0] === "mcp" && (words[1] === "list" || words[1] === "ls" ? words.length === 2 : ["login", "logout"].includes(words[1]!) && words.length === 3))
    throw new UsageError(`${goesFirst(`mcp ${words[1]}`)} (as a prompt: add more words)`);
  // Claude Code's and Codex's `mcp add|remove|get`, after a flag: no command of hey's, and no prompt anyone means
  if (words[0] === "mcp" && (PEER_MCP_VERBS as readonly string[]).includes(words[1]!))
    throw new UsageError(
      `hey has no command mcp ${words[1]}: run hey mcp ${words[1]} alone to see what does it (MCP servers are [mcp.NAME] tables in the config); as a prompt: hey -p "${words.join(" ")}"`,
    );
  const files = words.filter((w) => w.length > 1 && w.startsWith("@")).map((w) => w.slice(1));
  return {
    print: v.print ?? false,
    run: {
      output: oneOf("--output", v.output ?? "text", OUTPUTS),
      raw: v.raw ?? false,
      skills: !v["no-skills"],
      mcp: !v["no-mcp"],
      proxy: nonEmpty("--proxy", v.proxy),
      ...(v.plan ? { plan: true } : {}),
    },
    flags: {
      model: model(v.model),
      baseUrl: v["base-url"] === undefined ? undefined : url("--base-url", v["base-url"]),
      protocol: v.protocol === undefined ? undefined : oneOf("--protocol", v.protocol, PROTOCOLS, protocolHint(v.protocol)),
      apiKey: v["api-key"],
      effort: v.effort === undefined ? undefined : oneOf("-t/--effort", v.effort, EFFORTS),
      maxTurns: v["max-turns"] === undefined ? undefined : positiveInt("--max-turns", v["max-turns"]),
      maxRunTokens: v["max-run-tokens"] === undefined ? undefined : positiveInt("--max-run-tokens", v["max-run-tokens"]),
      ...(v["fallback-model"] === undefined ? {} : { fallbackModels: v["fallback-model"].split(",").map((m) => m.trim()) }), // an empty one is refused with the others' checks
    },
    config: nonEmpty("--config", v.config),
    approve: v.approve ?? false,
    continue: v.continue ?? false,
    resume: v.resume === "" ? undefined : nonEmpty("--resume", v.resume),
    pickSession: v.resume === "",
    sessions: v.sessions ?? false,
    all: v.all ?? false,
    verbose: v.verbose ?? false,
    version: v.version ?? false,
    help: v.help ?? false,
    files,
    message: words.join(" "),
  };
}

/** `hint`: what to say after the refused value (`; did you mean google?`) */
function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[], hint = ""): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(", ")} (got "${value}"${hint})`);
}

function nonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") throw new UsageError(`${flag} needs a non-empty value`);
  return value;
}

/** `-m PROVIDER/` (or `PROVIDER/ `, a blank model) would quietly mean the provider's default model, or none; `-m PROVIDER` is how to say that. */
function model(value: string | undefined): string | undefined {
  const spec = nonEmpty("-m/--model", value);
  const slashed = spec?.trimEnd();
  if (spec === undefined || !slashed!.endsWith("/")) return spec;
  const provider = slashed!.slice(0, -1);
  const hint = provider.includes("/") ? "" : `; -m ${provider} alone uses the provider's default model`;
  throw new UsageError(`-m/--model ${slashed}: no model after "${slashed}" (-m PROVIDER/MODEL${hint})`);
}

function positiveInt(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive integer (got "${value}")`);
  return Number(value);
}

function url(flag: string, value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be a URL such as http://127.0.0.1:11434/v1 (got "${value}")`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError(`${flag} must be an http:// or https:// URL (got "${value}")`);
  return value;
}
