// The command line split into flags and positionals (SPEC §2), and what a flag that hey has not
// is told. Pure: cli.ts validates what the flags hold.
import { closest } from "./config/suggest.ts";
import { peerFlag } from "./peer-names.ts";

/** A bad command line. The message names the flag; the caller prints it and exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A flag hey has not; `dashes`: what to say after it when it may be a message's first word (parseCli adds it), else "". */
export class UnknownFlagError extends UsageError {
  constructor(
    message: string,
    readonly dashes: string,
  ) {
    super(message);
  }
}

/**
 * `number`: its value is a number, so a negative one after it (`--max-turns -1`) is its value, refused as such, not a missing one;
 * `repeat`: each use adds its value to the earlier ones', comma-separated (`--fallback-model a --fallback-model b` is `a,b`)
 */
type OptionSpec = { type: "boolean" | "string"; short?: string; number?: true; repeat?: true };

export const OPTIONS = {
  print: { type: "boolean", short: "p" },
  output: { type: "string" },
  effort: { type: "string", short: "t" },
  model: { type: "string", short: "m" },
  "fallback-model": { type: "string", repeat: true },
  "base-url": { type: "string" },
  protocol: { type: "string" },
  "api-key": { type: "string" },
  config: { type: "string" },
  proxy: { type: "string" },
  "max-turns": { type: "string", number: true },
  "max-run-tokens": { type: "string", number: true },
  "no-mcp": { type: "boolean" },
  "no-skills": { type: "boolean" },
  raw: { type: "boolean" },
  plan: { type: "boolean" },
  approve: { type: "boolean" },
  continue: { type: "boolean", short: "c" },
  resume: { type: "string" },
  sessions: { type: "boolean" },
  all: { type: "boolean" },
  verbose: { type: "boolean" },
  version: { type: "boolean", short: "v" },
  help: { type: "boolean", short: "h" },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;
type Values = { -readonly [K in OptionName]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string };

const SHORT = new Map<string, OptionName>(Object.entries(OPTIONS).flatMap(([name, spec]) => ("short" in spec ? [[spec.short, name as OptionName]] : [])));

/**
 * Splits argv into option values and positionals: `--name`, `--name=value`, `--name value`,
 * `-x`, `-xVALUE`, `-x value`, grouped booleans (`-pc`), and `--` before positionals that start
 * with `-`. An argument whose flag part holds a space or a line break (`- fix the parser`, front
 * matter's `---` line, `-v is broken`) is a message, as no flag's name does: a prompt made from a
 * file (`hey -p "$(cat todo.md)"`) starts so. Hand-written: node:util's parseArgs costs ~10 ms of
 * start-up in a compiled binary.
 */
export function splitArgs(argv: string[]): { values: Values; positionals: string[] } {
  const values: Values = {};
  const positionals: string[] = [];
  const set = (name: OptionName, flag: string, inline: string | undefined, next: () => string | undefined) => {
    if (OPTIONS[name].type === "boolean") {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
      (values as Record<string, unknown>)[name] = true;
      return;
    }
    const value = inline ?? next();
    const negative = "number" in OPTIONS[name] && value !== undefined && /^-\d/.test(value); // a number, not the next flag
    if (value === undefined || (inline === undefined && value.startsWith("-") && value !== "-" && !negative))
      throw new UsageError(`${flagName(name)} needs a value`);
    const before = "repeat" in OPTIONS[name] ? values[name] : undefined;
    (values as Record<string, unknown>)[name] = before === undefined ? value : `${before},${value}`;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = () => argv[++i];
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("-") && isMessage(arg)) positionals.push(arg);
    else if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      if (!(name in OPTIONS)) {
        const near = closest(name, Object.keys(OPTIONS));
        const peer = peerFlag(name); // another agent's flag: what hey has instead, before any spelling near it
        throw new UnknownFlagError(
          `unknown flag --${name}${peer ? `; ${peer}` : near ? `; did you mean --${near}?` : ""} (see hey --help)`,
          peer || near || valued(arg, argv.slice(i + 1)) ? "" : dashes(arg),
        );
      }
      const following = argv[i + 1];
      // `hey --resume` with no ID (the end, or a flag next): the session is picked from a list (run.ts)
      if (name === "resume" && (eq < 0 ? following === undefined || (following.startsWith("-") && following !== "-") : eq === arg.length - 1)) {
        values.resume = "";
        continue;
      }
      set(name as OptionName, `--${name}`, eq < 0 ? undefined : arg.slice(eq + 1), next);
    } else if (arg.startsWith("-") && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const name = SHORT.get(arg[j]!);
        if (!name) {
          // another agent's one-letter flag (Codex's -C DIR) alone, not a letter of a message (`-Cleanup`)
          const peer = arg.length === 2 ? peerFlag(arg[1]!) : undefined;
          const resume = arg[j] === "r" ? "; to resume a session: hey --resume (picks from a list) or hey --resume ID (hey -c continues the last one)" : "";
          throw new UnknownFlagError(
            `unknown flag -${arg[j]}${arg.length > 2 ? ` in ${JSON.stringify(arg)}` : ""}${peer ? `; ${peer}` : ""} (see hey --help)${resume}`,
            arg[j] === "r" || peer ? "" : dashes(arg),
          );
        }
        const rest = arg.slice(j + 1);
        if (OPTIONS[name].type === "string") {
          set(name, `-${arg[j]}`, rest === "" ? undefined : rest, next);
          break;
        }
        set(name, `-${arg[j]}`, undefined, next);
      }
    } else positionals.push(arg);
  }
  return { values, positionals };
}

/**
 * Whether an unknown `--NAME` holds or is followed by a value, as a flag is and a message's first
 * word is not: `--workdir=/tmp`, or `--workdir /tmp -p hi` (a path or number next, or a flag after
 * the word next). `--fix the parser` may be a message, and is told how to send one.
 */
function valued(arg: string, after: readonly string[]): boolean {
  if (arg.includes("=")) return true;
  const [value, then] = after;
  if (value === undefined || value.startsWith("-")) return false;
  return /^[./~]|\/|^\d+$/.test(value) || (then?.startsWith("-") ?? false);
}

/** What a flag hey has not is told last: it may be a message's first word (`-fix`, `--version-2`). */
const dashes = (arg: string) => `; put -- before a message that starts with - (hey -p -- ${JSON.stringify(arg)})`;

/**
 * The part of an argument starting with `-` that names flags: a long flag's name (before any
 * `=`); a group of short ones up to the one that takes the rest as its value (`-m`, `-pmgpt-5`);
 * the whole argument when one of its letters is no flag.
 */
function flagPart(arg: string): string {
  if (arg.startsWith("--")) return arg.split("=", 1)[0]!;
  for (let j = 1; j < arg.length; j++) {
    const name = SHORT.get(arg[j]!);
    if (!name) return arg;
    if (OPTIONS[name].type === "string") return arg.slice(0, j + 1);
  }
  return arg;
}

/** `- fix the parser`, `---\ntitle: x`: a flag's name holds no space or line break, so this is a message. */
const isMessage = (arg: string) => /\s/.test(flagPart(arg));

/** "-m/--model" for options with a short form, "--output" otherwise. */
function flagName(name: OptionName): string {
  const spec: OptionSpec = OPTIONS[name];
  return spec.short ? `-${spec.short}/--${name}` : `--${name}`;
}
