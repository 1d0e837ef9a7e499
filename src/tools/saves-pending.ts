// Full outputs still being written after their call returned (command-result.ts): hiding the
// secrets of 45 MB takes ~1 s, which the model need not wait for, but whatever reads the file
// next — the next tool call, hey's exit — waits for it here. Pure.
import type { Tool } from "../kernel/tool.ts";

const writing = new Set<Promise<void>>();

/** Counts `save` (which never rejects) as pending until it settles. */
export function pendingSave(save: Promise<void>): void {
  writing.add(save);
  void save.finally(() => writing.delete(save));
}

/** Resolves once every full output being written is complete; at once when none is. Never rejects. */
export async function savesDone(): Promise<void> {
  while (writing.size > 0) await Promise.all(writing);
}

/** `tool` whose calls start once the full outputs being written are complete: one may read them. */
export function afterSaves(tool: Tool): Tool {
  return { ...tool, run: async (args, ctx) => (writing.size > 0 && (await savesDone()), tool.run(args, ctx)) };
}
