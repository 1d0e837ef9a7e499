// The programs `[tools]` names that cannot be run — `rg`, an external `bash_filter` — each said
// with where it is set, at start among the config's other problems and by `hey doctor`; the tool
// then runs without it (grep with the default ripgrep, bash output through the built-in filter).
import { unrunnable, unrunnableRipgrep } from "../fs/ripgrep-choice.ts";
import { unrunnableFilter } from "./filter-name.ts";
import { keyLine } from "./schema.ts";
import type { ConfigLayer, Settings } from "./settings.ts";
import { isTable } from "./table.ts";

/** The lines for `settings`' `[tools] rg` and `bash_filter` that cannot be run; none when both can (or are not set). */
export function unrunnableTools(settings: Pick<Settings, "tools" | "bashFilterSource">, layers: readonly ConfigLayer[]): string[] {
  const { rg, bashFilter } = settings.tools;
  const lines = [
    typeof rg === "string" ? unrunnableRipgrep(rg, rgSetting(layers)) : undefined,
    unrunnableFilter(bashFilter, settings.bashFilterSource, process.platform, unrunnable),
  ];
  return lines.filter((l) => l !== undefined);
}

/** `FILE:LINE` of the last file that sets `[tools] rg` (the one in force), for the line saying it cannot be run. */
function rgSetting(layers: readonly ConfigLayer[]): string {
  const path = ["tools", "rg"];
  const layer = layers.findLast((l) => isTable(l.data.tools) && l.data.tools.rg !== undefined);
  const line = layer && (layer.locate?.(path) ?? (layer.text === undefined ? undefined : keyLine(layer.text, path)));
  return layer ? `${layer.source}${line ? `:${line}` : ""}` : "config";
}
