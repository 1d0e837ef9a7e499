// `--output json`: one JSON object per line on stdout, nothing else there (SPEC §18).
import type { AgentEvent, Output } from "../kernel/output.ts";

export function createJsonOutput(write: (line: string) => void): Output {
  return {
    emit: (event: AgentEvent) => {
      if (event.type !== "message" && event.type !== "model") write(JSON.stringify(event) + "\n");
    },
  };
}
