// Full outputs still being written after their call returned (command-result.ts): hiding the
// secrets of 45 MB takes ~1 s, which the model need not wait for, but a tool call that may read
// the file next, and hey's exit, wait for it here. Pure.
import type { Tool } from "../kernel/tool.ts";

/** Each save being written, by the words a call that reads its file names: the file's name (the call's id) and its session's folder. */
const writing = new Map<Promise<void>, string[]>();

/** Counts `save` (which never rejects) as pending until it settles; `path` is `<root>/<session>/<id>.log`. */
export function pendingSave(path: string, save: Promise<void>): void {
  const [session, file] = path.split(/[\\/]/).slice(-2);
  writing.set(save, [session!, file!.replace(/\.log$/, "")]);
  void save.finally(() => writing.delete(save));
}

/** Resolves once every full output being written is complete; at once when none is. Never rejects. */
export async function savesDone(): Promise<void> {
  while (writing.size > 0) await Promise.all(writing.keys());
}

/**
 * `tool` whose calls that may read a full output being written (their arguments name its file,
 * its folder, or `outputs`: a glob over them) start once it is whole; other calls do not wait.
 */
export function afterSaves(tool: Tool): Tool {
  const reads = (args: Record<string, unknown>) => {
    const text = JSON.stringify(args);
    return [...writing.values()].some((words) => text.includes("outputs") || words.some((w) => text.includes(w)));
  };
  return { ...tool, run: async (args, ctx) => (writing.size > 0 && reads(args) && (await savesDone()), tool.run(args, ctx)) };
}
