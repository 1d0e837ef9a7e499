// What the user's line becomes before the agent sees it (SPEC §4): the message with its @files and
// stdin, a `/skill:NAME` line's skill text before the message, a `/mcp:SERVER:PROMPT` line's
// messages, and the `@SERVER:URI` resources it names. The first message of a run (run.ts) and each
// REPL line come through here; a mistake is a UsageError, a MentionError or an McpInputError.
import { UsageError } from "./cli.ts";
import type { Places } from "./fs/places.ts";
import { errnoCode, errorText } from "./kernel/errors.ts";
import type { ContentBlock } from "./kernel/ir.ts";
import { createRedaction, redactedForm } from "./config/secrets.ts";
import type { Settings } from "./config/settings.ts";
import { imageCheckFor } from "./providers/image-fit.ts";
import { promptMessage, withResources } from "./mcp/attach.ts";
import { resourceMentions } from "./mcp/resources.ts";
import { expandPrompt, isBlank, MentionError } from "./prompt/input.ts";
import { decodeForPrompt } from "./fs/prompt-text.ts";
import { cutNotice, findMentions, writeMention } from "./prompt/mentions.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Runtime } from "./runtime.ts";
import { findSkill, parseSkillCommand, skillCutNote, skillCutNotice, skillMaxBytes, skillMessage, titledSkill, unknownSkill } from "./skills/catalog.ts";
import { configuredWindow } from "./config/settings.ts";
import { effectiveBudget } from "./context/window.ts";
import { readSkillText, SkillLinkOut } from "./skills/load.ts";
import { contentHash } from "./tools/read-file.ts";
import type { SeenFiles } from "./tools/seen-files.ts";
import type { FilesByName } from "./prompt/file-match.ts";
import { realTarget } from "./fs/real-target.ts";
import { lineKind, type SlashNames } from "./ui/slash.ts";
import { peerCommandFile, projectSkillFile } from "./peers/found.ts";

type Warn = (message: string) => void;

/**
 * The prompt of a one-shot run (or the REPL's first message): the message, its @files and stdin.
 * `servers` are those whose `@SERVER:URI` words are resources, not files; `seen`: where the files
 * it brings whole are remembered as seen by the agent (Runtime.seen); a skill's text is added once
 * the skills are loaded (withSkillText). The @files' text has `secrets` (knownSecrets) and, unless
 * `[tools] redact_secrets = false`, values shaped like credentials hidden, as a later line's have.
 */
export function firstPrompt(
  message: string,
  files: string[],
  stdin: Uint8Array | undefined,
  here: Places,
  opts: {
    oneShot: boolean;
    maxBytes: number;
    servers: string[];
    warn: Warn;
    seen: SeenFiles;
    settings: Settings;
    secrets: readonly string[];
    /** filesForNames */
    byName?: FilesByName;
  },
): ContentBlock[] {
  if (opts.oneShot && message.trim() === "" && isBlank(stdin)) throw new UsageError('no message: give it as arguments (hey -p "…") or on stdin');
  const kind = lineKind(message);
  // a prompt command's message comes from its server; an unknown `/word` is said once the skills it may name are loaded (slashMistake)
  if (kind === "command" || kind === "mcp-prompt" || kind === "unknown") return [];
  const input = {
    cwd: here.cwd,
    home: here.home,
    required: files,
    stdin,
    maxBytes: opts.maxBytes,
    warn: opts.oneShot ? opts.warn : () => {},
    skip: resourceWord(opts.servers),
    saw: sawInto(opts.seen),
    imageCheck: imageCheckFor(opts.settings.provider.protocol),
    byName: opts.byName,
    redact: (text: string) =>
      redactedForm(
        text,
        createRedaction(
          () => opts.secrets,
          () => opts.settings.tools.redactSecrets,
        ),
      ),
  };
  return userContent(isSkillLine(message) ? parseSkillCommand(message)!.args : message, input); // the REPL expands it again
}

/**
 * The project's files by name (tools/project-files.ts, listed by the ripgrep `rg` gives, `[tools] rg`) when
 * `message` has an `@name` with no `/` that is no file here, which expandPrompt then looks up by
 * name; undefined otherwise: most messages never list the project.
 */
export async function filesForNames(message: string, here: Places, rg: () => string | null | undefined): Promise<FilesByName | undefined> {
  const bare = ({ path }: { path: string }) => !path.includes("/") && !path.startsWith("~") && !existsSync(join(here.cwd, path));
  if (!findMentions(message).some(bare)) return undefined;
  // ripgrep's code loads only when a message names a file so (tools/ripgrep.ts)
  const ripgrep = async () => (await import("./tools/ripgrep.ts")).ripgrepFor(rg(), here.home, here.cacheDir);
  // so does the listing's and the lookup's: most messages name none
  const [{ projectFiles }, { filesByName }] = await Promise.all([import("./tools/project-files.ts"), import("./prompt/file-match.ts")]);
  return filesByName(await projectFiles(here.root, here.cwd, ripgrep).fresh());
}

/** A message of `-` alone is read from stdin (`hey -p - < task.md`, as `codex exec -` does), not given stdin after it. */
export const STDIN_MESSAGE = "-";

/** `hey -p -` with no input to read: stdin is the terminal hey was started at. */
export const STDIN_IS_TERMINAL = "a message of - is read from stdin, and stdin is a terminal here: pipe the message in (hey -p - < task.md)";

/**
 * The message of `hey -p -`: stdin's text, read as stdin after a message is (cut at `maxBytes`,
 * text that is not UTF-8 read as Windows-1252), with what the model should know of that after it;
 * "" for blank input. A MentionError for binary input.
 */
export function stdinMessage(bytes: Uint8Array, maxBytes: number, warn: Warn): string {
  const decoded = decodeForPrompt(bytes, maxBytes);
  if ("binary" in decoded) throw new MentionError("stdin: binary data (a NUL byte near its start); hey takes text on stdin");
  if (decoded.text.trim() === "") return "";
  if (decoded.cut) warn(cutNotice("stdin", decoded.cut));
  const cut = decoded.cut && `(truncated: showing the first ${decoded.cut.shown} bytes of stdin; the rest was left out)`;
  return [decoded.text.trim(), cut, decoded.encoding && `(${decoded.encoding})`].filter(Boolean).join("\n\n");
}

/** The first prompt with the skill's text before it, for a `/skill:NAME` message (else unchanged). */
export function withSkillText(message: string, prompt: ContentBlock[], runtime: Runtime, skillsOn: boolean, warn: Warn): ContentBlock[] {
  return isSkillLine(message) ? withSkill(skillText(message, runtime, skillsOn, warn), prompt) : prompt;
}

/** What a `/word` that is no command may name (ui/slash.ts slashMistake): the skills loaded now, Claude Code's and Codex's command files, a project's skill not loaded. */
export function slashNames(runtime: Runtime, here: Places): SlashNames {
  return {
    skills: runtime.skills().flatMap((s) => [s.name, ...(s.aliases ?? [])]),
    other(name) {
      const command = peerCommandFile(here, name);
      if (command || name.includes(":")) return command;
      const file = projectSkillFile(here.root, name);
      const why = file && (runtime.leftOut() ?? runtime.unloadedSkill(name));
      return why ? `/${name} is no command; /skill:${name} would run ${file}, but ${why}` : undefined;
    },
  };
}

/** A REPL line that is a message (not a command): what is sent for it. */
export async function lineContent(line: string, runtime: Runtime, here: Places, skillsOn: boolean, warn: Warn, signal: AbortSignal): Promise<ContentBlock[]> {
  const kind = lineKind(line);
  const input = {
    cwd: here.cwd,
    home: here.home,
    maxBytes: runtime.settings.input.maxBytes,
    warn,
    skip: resourceWord(runtime.mcp.status().map((s) => s.name)),
    saw: sawInto(runtime.seen),
    imageCheck: imageCheckFor(runtime.settings.provider.protocol),
    redact: runtime.redact, // its placeholders count as shown: write_file will not put them back in the file
    byName: await filesForNames(line, here, () => runtime.settings.tools.rg),
  };
  const content =
    kind === "skill"
      ? withSkill(skillText(line, runtime, skillsOn, warn), userContent(parseSkillCommand(line)!.args, input))
      : kind === "mcp-prompt"
        ? []
        : expandPrompt(line, input);
  return mcpInput(runtime, line, content, warn, signal);
}

/**
 * What MCP servers add to a message: a `/mcp:SERVER:PROMPT` line is the prompt's messages, and
 * `@SERVER:URI` resources are attached. Throws McpInputError.
 */
export async function mcpInput(
  runtime: Runtime,
  line: string,
  content: ContentBlock[],
  warnTo: Warn,
  signal = new AbortController().signal,
): Promise<ContentBlock[]> {
  if (lineKind(line) === "mcp-prompt") return promptMessage(runtime.mcp, line, signal);
  return withResources(runtime.mcp, line, content, runtime.settings.input.maxBytes, signal, warnTo);
}

/** `@SERVER:URI`: a resource of a running MCP server, not a file. */
const resourceWord = (servers: readonly string[]) => (word: string) => resourceMentions(writeMention(word), servers).length > 0;

/**
 * A file the user's message brought whole counts as read by the agent: write_file will not replace
 * it from memory once it has changed (an edit the user saves while the agent works is kept).
 */
const sawInto = (seen: SeenFiles) => (full: string, bytes: Uint8Array) => seen.set(realTarget(full), { hash: contentHash(bytes) });

/** The message's blocks, none for an empty message (a `/skill:NAME` without args). */
function userContent(message: string, opts: Parameters<typeof expandPrompt>[1]): ContentBlock[] {
  return expandPrompt(message, opts).filter((b) => b.type !== "text" || b.text !== "");
}

/** `/skill:NAME args` is a message, not a command: the skill's text, then the args. */
const isSkillLine = (line: string) => parseSkillCommand(line) !== undefined;

/** The skill's text for a `/skill:NAME` line, a cut said to `warn`. Throws UsageError for an unknown or unreadable skill. */
function skillText(line: string, runtime: Runtime, skillsOn: boolean, warn: Warn): string {
  const { name, args } = parseSkillCommand(line)!;
  const skills = runtime.skills();
  const skill = findSkill(name, skills);
  if (!skill) {
    // why a skill of the folders that load now is not loaded (waiting for the user's yes, written since the skills were loaded, a
    // mistake in it) first; else the project's trust, which says what /trust and /reload do for the project's folders alone
    const why = titledSkill(name, skills) ? undefined : ((skillsOn ? runtime.unloadedSkill(name) : undefined) ?? runtime.leftOut());
    throw new UsageError(skillsOn ? unknownSkill(name, skills) + (why ? `; ${why}` : "") : "skills are off in this run (--no-skills)");
  }
  try {
    const budget = effectiveBudget(runtime.settings.agent.budgetTokens, configuredWindow(runtime.settings));
    const read = readSkillText(skill, skillMaxBytes(budget, runtime.settings.input.maxBytes));
    if (read.cut) warn(skillCutNotice(name, read.cut.shown, read.cut.of ?? read.cut.shown, budget));
    const text = read.encoding ? `${read.text.trimEnd()}\n(${read.encoding})` : read.text;
    return skillMessage(skill, text, read.cut ? skillCutNote(skill.path, read.text, read.cut.of ?? read.cut.shown) : false, args);
  } catch (e) {
    if (e instanceof SkillLinkOut) throw new UsageError(e.message); // the user's to read: a usage error reaches no request
    throw new UsageError(`${skill.path}: cannot read (${errnoCode(e) ?? errorText(e)})`);
  }
}

/** The skill's text and, after a blank line, the message's. */
function withSkill(skill: string, content: ContentBlock[]): ContentBlock[] {
  const [first, ...rest] = content;
  if (first?.type === "text") return [{ type: "text", text: `${skill}\n\n${first.text}` }, ...rest];
  return [{ type: "text", text: skill }, ...content];
}
