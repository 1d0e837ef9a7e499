// `hey -p /usage`, `hey -c /compact`: one slash command run on its own, its result the run's output
// and exit code. A command that asks the model (/compact's summary) fails as a `-p` turn does.
import { EXIT } from "./cli.ts";
import { commandContext } from "./command-context.ts";
import { ConfigError } from "./config/settings.ts";
import type { Places } from "./fs/places.ts";
import { errorText } from "./kernel/errors.ts";
import { type ErrorKind, usageCounts } from "./kernel/output.ts";
import { ProviderError } from "./kernel/provider.ts";
import type { Runtime } from "./runtime.ts";
import type { CommandResult } from "./ui/commands.ts";
import { doneEvent } from "./ui/json.ts";
import { fitted, writer } from "./ui/term.ts";

/** The command's text on stdout (an error on stderr, exit 2); `json`: a `command` event, then `done`. */
export async function oneCommand(runtime: Runtime, here: Places, line: string, json: boolean, skillsOn: boolean): Promise<number> {
  const { runCommand } = await import("./ui/commands.ts");
  const context = commandContext(runtime, here, new AbortController().signal, (t) => writer(2).write(`${t}\n`), undefined, skillsOn);
  const { result, kind, code } = await runCommand(line, { ...context, oneShot: true, columns: json ? 0 : process.stdout.columns || 0 }).then(
    (result) => ({ result, kind: "usage" as ErrorKind, code: result.ok ? EXIT.ok : EXIT.usage }),
    failedCommand,
  );
  if (json) {
    runtime.output.emit({ type: "command", name: line.trim().split(/\s/, 1)[0]!, ok: result.ok, output: result.text });
    // a refused command ends the run with an error that says why, as any stop but `end` does (docs/json-events.md)
    if (!result.ok) runtime.output.emit({ type: "error", kind, message: result.text.replace(/^hey: /, "") });
    runtime.output.emit(doneEvent(result.ok ? "end" : "error", usageCounts(runtime.agent.usage.total)));
  } else if (result.text) writer(result.ok ? 1 : 2).write(`${result.fitted ? result.text : fitted(result.ok ? 1 : 2, result.text)}\n`); // as the REPL shows it
  return code;
}

/**
 * A command that asked the provider and failed (`hey -c /compact` when the summary request gets a
 * 401 or an empty answer): one line, as the interactive prompt says it, with the error's own kind
 * and the exit code of a `-p` turn that failed so (1); a configuration the command needed that
 * fails, kind `config`, exit 2. Anything else is hey's own bug and goes on up.
 */
export function failedCommand(e: unknown): { result: CommandResult; kind: ErrorKind; code: number } {
  if (!(e instanceof ProviderError) && !(e instanceof ConfigError)) throw e;
  const result = { text: `hey: ${errorText(e)}`, ok: false };
  return e instanceof ProviderError ? { result, kind: e.kind, code: EXIT.runtime } : { result, kind: "config", code: EXIT.usage };
}
