// The five built-in tools (SPEC §7) as one run configures them: bash, read_file, write_file, edit and
// grep, from the settings and what the run gives them (wire.ts assemble; the tests build them too).
import type { Settings } from "./config/settings.ts";
import type { WriteVet } from "./config/write-check.ts";
import type { Tool } from "./kernel/tool.ts";
import { type BashToolOptions, createBashTool, withVariables } from "./tools/bash.ts";
import { createEditTool } from "./tools/edit.ts";
import { createGrepTool } from "./tools/grep.ts";
import { createReadFileTool } from "./tools/read-file.ts";
import type { SeenFiles } from "./tools/seen-files.ts";
import { createWriteFileTool } from "./tools/write-file.ts";
import { AGENT_MARK } from "./agent-mark.ts";
import { type FilterWatch, watchFilter } from "./tools/filter-watch.ts";
import { saidUnrunnable, unrunnableFilter } from "./config/filter-name.ts";
import { unrunnable } from "./fs/ripgrep-choice.ts";

type Env = Record<string, string | undefined>;
type BashPart = Pick<BashToolOptions, "shell" | "raw" | "outputDir" | "home" | "notice" | "hide" | "env" | "watch"> & { readEnv?: Env };
/**
 * The five built-in tools (SPEC §7), configured from settings and flags; `outputDir`: where bash keeps full outputs; `env`: the commands' environment
 * (process.env by default; grep's is `readEnv` where `env` is made per command); `seen`: the run's SeenFiles; `hide`: keys out of a result's text.
 */
export function createTools(settings: Settings, opts: BashPart & { cacheDir?: string; seen?: SeenFiles; session?: string; vet?: WriteVet }): Tool[] {
  const { shell, env, readEnv, home, cacheDir, seen = new Map(), session, vet, ...bash } = opts; // bash: raw, outputDir, notice, hide, watch
  const marked = withVariables(env, session === undefined ? {} : { [AGENT_MARK]: session }); // a hey it runs asks no question (agent-mark.ts)
  return [
    createBashTool({ ...bash, shell, timeoutMs: settings.tools.bashTimeoutMs, filter: settings.tools.bashFilter, env: marked, home, session }),
    createReadFileTool({ home, seen, shell: shell.name, rg: settings.tools.rg, cacheDir, ...(bash.hide ? { redact: bash.hide } : {}) }),
    createWriteFileTool({ home, seen, vet }),
    createEditTool({ home, seen, vet, rg: settings.tools.rg, cacheDir }),
    createGrepTool({ rg: settings.tools.rg, home, env: readEnv ?? (typeof env === "function" ? undefined : env), cacheDir }),
  ];
}

/**
 * The run's watch over `settings`' bash filter, shared by the bash tool and `!COMMAND`, telling `say`
 * when it cannot run or keeps failing (tools/filter-watch.ts); one found missing at start — a line of
 * the config's `warnings` says so (config/unrunnable-tools.ts) — is never run. Those warnings are
 * what was found: PATH is not searched again for the same program (a search per PATH directory).
 */
export function filterWatch(settings: Pick<Settings, "tools" | "bashFilterSource">, warnings: readonly string[], say: (line: string) => void): FilterWatch {
  const { bashFilter } = settings.tools;
  return watchFilter(bashFilter, settings.bashFilterSource, say, saidUnrunnable(bashFilter, settings.bashFilterSource, warnings) !== undefined);
}

type Filtered = Pick<Settings, "tools" | "bashFilterSource">;

/**
 * The run's filter watches, one per configure (wire.ts): with `said` (start-up's warnings, a /reload's
 * fresh ones) made from that answer; without (`/model`), the run's watch goes on while the filter is
 * the same and was not found missing — its failures in a row, and a filter turned off "for the rest of
 * this run", are the filter's, not the model's — else PATH is searched again, so a filter installed
 * since start is used (README /reload: from the first request on, hey asks again each time).
 */
export function filterWatches(say: (line: string) => void, platform = process.platform): (settings: Filtered, said?: readonly string[]) => FilterWatch {
  let last: { filter: string; source: string | undefined; watch: FilterWatch; missing: boolean } | undefined;
  return (settings, said) => {
    const { bashFilter: filter } = settings.tools;
    const source = settings.bashFilterSource;
    if (!said && last && last.filter === filter && last.source === source && !last.missing) return last.watch;
    const missing = said ? saidUnrunnable(filter, source, said) !== undefined : unrunnableFilter(filter, source, platform, unrunnable) !== undefined;
    last = { filter, source, watch: watchFilter(filter, source, say, missing), missing };
    return last.watch;
  };
}
