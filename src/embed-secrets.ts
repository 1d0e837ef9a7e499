// What an embedded agent (lib.ts) keeps from its model, as the CLI's does (wire.ts with
// config/secrets.ts): the API key its provider was made with and the embedder's own secrets are
// replaced by [redacted] in every tool result and every event (the session file's included),
// values shaped like credentials become `[secret: NAME]` placeholders in tool results, and the
// commands the model runs get no variable that holds one of the secrets (config/secrets.ts
// withoutSecrets, as the CLI's). Pure.
import { redactDeep, redactingOutput, redactingTool, redactText, secretSpellings } from "./config/secrets.ts";
import type { Output } from "./kernel/output.ts";
import type { Tool } from "./kernel/tool.ts";

export interface SecretGuard {
  /** `tool` whose results reach the model redacted (and a placeholder it saw is never written back to a file) */
  tool(tool: Tool): Tool;
  /** `output` seeing every event redacted, streamed text included */
  output(output: Output): Output;
  /** `text` as a tool result shows it, its placeholders counted as shown (read_file's window into a private key) */
  text(text: string): string;
  /** `value` (a run's result) with the secrets replaced, as an event's are */
  value<T>(value: T): T;
}

/** A guard for `secrets` (as the CLI's: those of 8 characters or more, and their base64 spellings); `shapes`: hide values shaped like credentials too. */
export function secretGuard(secrets: readonly (string | undefined)[], shapes: boolean): SecretGuard {
  const known = secretSpellings(secrets);
  const redaction = { secrets: () => known, shapes: () => shapes, shown: new Set<string>() };
  return {
    tool: (tool) => redactingTool(tool, redaction),
    output: (output) => redactingOutput(output, () => known),
    text: (text) => redactText(text, redaction),
    value: (value) => redactDeep(value, known),
  };
}
