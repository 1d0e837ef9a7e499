// Tool arguments checked against the tool's own JSON Schema, once, in the pipeline (STYLE "One
// pipeline"): every tool, built-in or MCP, gets required keys and top-level types checked for free,
// and its `run` sees the types its schema promises. Pure.

/** The part of JSON Schema checked here: `required` and each top-level property's `type`. */
type Schema = { properties?: Record<string, { type?: unknown } | undefined>; required?: unknown };

const PHRASE: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  null: "null",
};

/**
 * Other agents' names for the arguments of hey's built-in tools (Claude Code's `file_path`,
 * opencode's `filePath` and `include`, ripgrep's `-i` and `-C`, Claude Code's grep `head_limit`…):
 * taken as hey's own name when the tool has that argument and it was not given too. The schema the
 * model is sent stays as it is; this saves a turn when a model writes from another agent's habits.
 */
const ALIASES: Record<string, string> = {
  file_path: "path",
  filePath: "path",
  absolute_path: "path",
  dir_path: "path",
  include: "glob",
  "-i": "ignore_case",
  case_insensitive: "ignore_case",
  "-C": "context",
  head_limit: "max_results",
  oldString: "old_string",
  newString: "new_string",
  replaceAll: "replace_all",
  timeout: "timeout_ms",
};
/**
 * The file a built-in call names: its `path`, or the same given under another agent's name
 * (`file_path`…, ALIASES) — what the call's ordering among others, a diff before a write and a
 * resume's tidying of a killed write go by, before the call is checked. Pure.
 */
export function callPath(args: Record<string, unknown> | undefined): string | undefined {
  if (!args) return undefined;
  const path = args.path ?? Object.entries(args).find(([key, v]) => ALIASES[key] === "path" && typeof v === "string")?.[1];
  return typeof path === "string" && path !== "" ? path : undefined;
}

/** Names close to an argument but not the same thing: named in the error (`-A` is context after only). */
const NEAR: Record<string, string> = { "-A": "context", "-B": "context", type: "glob", limit: "max_results", cmd: "command" };
/**
 * What other agents' tools take that changes nothing here: Claude Code's and opencode's bash
 * `description` of the command, Cursor's `explanation`, Cline's `requires_approval` (hey's
 * permission lists decide), and a false `is_background` (Cursor's; a true one is refused, BACKGROUND).
 */
const IGNORED = new Set(["description", "explanation", "requires_approval"]);
/** Cursor's `is_background: true`: hey's bash has no such flag; said so, and how to run a job. */
const BACKGROUND = "is_background";
/**
 * Other agents' directory for a command (Codex's `workdir`, others' `cwd`): hey's bash runs each
 * command in the project root, so the directory becomes part of the command, in the syntax of the
 * tool's shell (Tool.inDirectory) — and that is what the permission check judges and the shell runs.
 */
const DIRECTORIES = new Set(["workdir", "cwd", "working_directory", "directory"]);

/** A tool's way to run `command` in `dir` (Tool.inDirectory): the command that does, or why it cannot. */
export type InDirectory = (command: string, dir: string) => { command: string } | { error: string };

/**
 * `args` checked against `schema`: an absent or null optional key is dropped; a boolean or number
 * the model sent as a string ("true", "12" — models do) is converted when the schema says so.
 * Returns the arguments to run with, or an error naming the tool, the key, what it must be and
 * what was sent. With `strict` (hey's own tools) an argument the schema does not name is taken
 * under its ALIASES name, dropped when IGNORED, else an error naming it and the arguments the
 * tool takes; without (an MCP server's tools, whose schemas are theirs) unknown keys pass
 * untouched. A schema this does not understand, or that names no argument, checks nothing.
 * `inDirectory`: how a strict tool's `command` is run in another directory (DIRECTORIES). Never throws.
 */
export function checkArguments(
  tool: string,
  args: Record<string, unknown>,
  schema: Record<string, unknown>,
  strict = false,
  inDirectory?: InDirectory,
): { args: Record<string, unknown> } | { error: string } {
  const { properties = {}, required } = schema as Schema;
  const needed = new Set(Array.isArray(required) ? required.filter((k): k is string => typeof k === "string") : []);
  const out: Record<string, unknown> = { ...args };
  for (const [key, value] of Object.entries(args)) if (value === null && !needed.has(key) && !accepts(properties[key]?.type, null)) delete out[key];
  if (strict && Object.keys(properties).length > 0) {
    // Codex's shell takes its command as argv (`["bash", "-lc", "npm test"]`): one command line, each word quoted as needed
    if (properties.command?.type === "string" && Array.isArray(out.command) && out.command.length > 0 && out.command.every((w) => typeof w === "string"))
      out.command = out.command.map(shellWord).join(" ");
    const unknown = renameAliases(tool, out, properties, inDirectory);
    if (unknown) return { error: unknown };
  }
  for (const key of needed) {
    if (out[key] !== undefined) continue;
    const type = properties[key]?.type;
    return { error: `${tool}: \`${key}\` ${typeof type === "string" && PHRASE[type] ? `must be ${PHRASE[type]}` : "is required"}, got nothing` };
  }
  for (const [key, spec] of Object.entries(properties)) {
    if (!(key in out) || spec?.type === undefined) continue;
    const value = coerce(spec.type, out[key]);
    if (!accepts(spec.type, value)) return { error: `${tool}: \`${key}\` must be ${expected(spec.type)}, got ${show(out[key])}` };
    out[key] = value;
  }
  return { args: out };
}

/** `args` with other agents' names renamed to hey's (in place); the error for a key the tool does not take, if any. */
function renameAliases(
  tool: string,
  args: Record<string, unknown>,
  properties: NonNullable<Schema["properties"]>,
  inDirectory: InDirectory | undefined,
): string | undefined {
  const has = (key: string | undefined): key is string => key !== undefined && Object.hasOwn(properties, key);
  for (const key of Object.keys(args)) {
    if (has(key)) continue;
    const dir = args[key];
    if (DIRECTORIES.has(key) && has("command") && inDirectory && typeof dir === "string") {
      if (dir !== "" && typeof args.command === "string") {
        const folded = inDirectory(args.command, dir);
        if ("error" in folded) return `${tool}: \`${key}\` ${JSON.stringify(dir)} ${folded.error}`;
        args.command = folded.command;
      }
      delete args[key];
      continue;
    }
    if (key === BACKGROUND && has("command")) {
      if (args[key] === true)
        return `${tool}: \`${key}\` is not taken: end the command with & to leave it running (what it prints later goes to a job log the result names)`;
      delete args[key];
      continue;
    }
    const to = ALIASES[key];
    if (has(to) && !(to in args)) {
      args[to] = args[key];
      delete args[key];
    } else if (IGNORED.has(key)) delete args[key];
    else {
      const near = has(to) ? to : has(NEAR[key]) ? NEAR[key] : undefined;
      return `${tool}: unknown argument \`${key}\`${near ? ` (did you mean ${near}?)` : ""}; ${tool} takes ${Object.keys(properties).join(", ")}`;
    }
  }
  return undefined;
}

function types(type: unknown): string[] {
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === "string");
}

function accepts(type: unknown, v: unknown): boolean {
  const list = types(type);
  if (list.length === 0) return true;
  return list.some((t) => {
    switch (t) {
      case "string":
        return typeof v === "string";
      case "integer":
        return typeof v === "number" && Number.isInteger(v);
      case "number":
        return typeof v === "number" && Number.isFinite(v);
      case "boolean":
        return typeof v === "boolean";
      case "array":
        return Array.isArray(v);
      case "object":
        return typeof v === "object" && v !== null && !Array.isArray(v);
      case "null":
        return v === null;
      default:
        return true; // a type this checker does not know: the tool decides
    }
  });
}

/** "true"/"false" for a boolean, a numeric string for a number, when the value is not already acceptable. */
function coerce(type: unknown, v: unknown): unknown {
  if (typeof v !== "string" || accepts(type, v)) return v;
  const list = types(type);
  if (list.includes("boolean") && (v === "true" || v === "false")) return v === "true";
  if ((list.includes("integer") || list.includes("number")) && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return v;
}

function expected(type: unknown): string {
  return types(type)
    .map((t) => PHRASE[t] ?? t)
    .join(" or ");
}

/** A value as an error shows it: strings quoted, long ones cut. */
function show(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** A word of argv as a POSIX shell reads it back: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : singleQuoted(word);
}

/** `text` in POSIX single quotes, a `'` in it written `'\''`: one word whatever it holds. */
export const singleQuoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
