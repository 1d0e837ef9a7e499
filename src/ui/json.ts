// `--output json`: one JSON object per line on stdout, nothing else there (SPEC §18, §24). The
// wire format is decided here, from the agent's events: `tool_call.arguments` as an object, the
// schema version on `session`, and a `result` with the final answer before every `done` of a run
// that asked the model. docs/json-events.md documents it; a test checks the two agree.
import { parseArguments, textOf } from "../kernel/ir.ts";
import type { AgentEvent, ErrorKind, Output, UsageCounts } from "../kernel/output.ts";
import { failedRequestMarker } from "../kernel/turns.ts";

/** Bumped when an event loses a field or a field changes meaning; new fields and events do not bump it. */
export const JSON_SCHEMA = 1;

const NO_USAGE: UsageCounts = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 };

/** A call the permission rules refused, as `result` and `done` list them: `input` a short form of its arguments, `reason` the rules'. */
interface Denial {
  id: string;
  name: string;
  input: string;
  reason: string;
}

/** What `input` of a denial quotes of arguments that are no command or path. */
const DENIAL_INPUT_CHARS = 200;

/** A call's arguments as a denial quotes them: a command, else a path, else the JSON cut short. */
function denialInput(args: Record<string, unknown> | undefined): string {
  for (const key of ["command", "path", "file_path"]) if (typeof args?.[key] === "string") return args[key];
  const json = JSON.stringify(args ?? {});
  return json.length > DENIAL_INPUT_CHARS ? `${json.slice(0, DENIAL_INPUT_CHARS)}…` : json;
}

export function createJsonOutput(write: (line: string) => void): Output {
  const line = (event: object) => write(JSON.stringify(event) + "\n");
  let answer = ""; // the text of the last assistant message of the run so far
  const inputs = new Map<string, string>(); // a call's `input`, by id, until its result
  let denials: Denial[] = []; // the run's refused calls, for `result` and `done`
  return {
    emit: (event: AgentEvent) => {
      switch (event.type) {
        case "message":
          // a failed request's marker is for the model: the answer stays the model's last words ("" when none)
          if (event.message.role === "assistant" && !failedRequestMarker(event.message)) answer = textOf(event.message);
          return;
        case "model":
        case "tool_start":
        case "tool_progress":
        case "tool_output":
        case "summarizing": // its `compaction` event says what came of it
        case "debug":
          return;
        case "session": {
          const { type, ...rest } = event;
          return line({ type, schema: JSON_SCHEMA, ...rest });
        }
        case "tool_call": {
          const args = parseArguments(event.arguments);
          inputs.set(event.id, denialInput(args));
          // text that is not a JSON object stays visible, as the model wrote it
          return line({ ...event, arguments: args ?? {}, ...(args ? {} : { arguments_text: event.arguments }) });
        }
        case "usage": {
          const { tokens_per_char: _, fixed_hash: _f, summary_failed: _s, rebuilt: _r, task_note: _n, history_from: _h, system_prompt: _p, ...counts } = event; // the session's, not the wire format's
          return line(counts);
        }
        case "tool_result":
          // plan mode's refusals are no denial of the rules: `refused: "plan"` tells them apart
          if (event.refused === "permission")
            denials.push({
              id: event.id,
              name: event.name,
              input: inputs.get(event.id) ?? "",
              reason: event.output.replace(/^blocked by permission rules:\s*/, ""),
            });
          inputs.delete(event.id);
          return line(event);
        case "done": {
          const denied = denials.length > 0 ? { permission_denials: denials } : {};
          if (event.turns > 0) line({ type: "result", text: answer, stop_reason: event.stop_reason, turns: event.turns, usage: event.usage, ...denied });
          answer = "";
          denials = [];
          return line({ ...event, ...denied });
        }
        default:
          return line(event);
      }
    },
  };
}

/**
 * The lines of a run that failed before it started (a bad flag, `@missing`, a bad `--resume`) or
 * was stopped before it (a signal while stdin is awaited: kind `interrupted`): `error`, then `done`.
 */
export function failureLines(kind: ErrorKind, message: string): string {
  return JSON.stringify({ type: "error", kind, message }) + "\n" + JSON.stringify(doneEvent(kind === "interrupted" ? kind : "error")) + "\n";
}

/**
 * The `done` of a run that made no turn (a slash command, a failure before the first); `usage`:
 * what it spent all the same (`/compact`'s summary request).
 */
export function doneEvent(stop: "end" | "error" | "interrupted", usage: UsageCounts = NO_USAGE): Extract<AgentEvent, { type: "done" }> {
  return { type: "done", stop_reason: stop, turns: 0, usage: { ...usage } };
}
