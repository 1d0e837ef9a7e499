// The one pipeline every tool call goes through (SPEC §9, STYLE "One pipeline"):
// find → parse and check arguments → permission → run. Unknown tools, bad arguments, refusals and thrown
// errors all become error results for the model; only an abort ends the turn early.
import { resolve as resolvePath } from "node:path";
import { newId, parseArguments, type Message, type ToolCall } from "./ir.ts";
import type { Output, Refuser } from "./output.ts";
import { abortReason, type Tool, type ToolResult } from "./tool.ts";
import { callPath, checkArguments } from "./tool-args.ts";
import { BUILTIN_TOOLS, TOOL } from "./tool-names.ts";
import { errorText } from "./errors.ts";
import { readArguments } from "./call-arguments.ts";
import { nearestTool } from "./call-names.ts";
import { firstOfSame, repeatCount, repeatNote, repeatNotice, REPEAT_NOTE_AT, sameCallResult, stepOf, type Step } from "./repeats.ts";

/**
 * Where an MCP tool comes from, for the permission rules: its server, the server's own name for it
 * (as offered: sanitized), and `<server>_<name>`, the name it is offered under after a clash. A rule
 * naming the tool by either matches it, whichever name the model sees now.
 */
export interface ToolOrigin {
  server: string;
  name: string;
  qualified: string;
}

/**
 * A refusal reason, or undefined when the call may run. `origin`: the MCP tool the model calls as `tool` (none for hey's own).
 * `files`: for a call it let run that searches a tree (grep), which files in it the rules still keep
 * from the call, by absolute path (ToolContext.refusedFile); undefined: none. Never throws.
 */
export type PermissionCheck = {
  (tool: string, args: Record<string, unknown>, origin?: ToolOrigin): string | undefined;
  files?(tool: string, args: Record<string, unknown>): ((abs: string) => boolean) | undefined;
};

export interface ToolRunDeps {
  tools: Tool[];
  output: Output;
  permission: PermissionCheck;
  signal: AbortSignal;
  cwd: string;
  /**
   * the absolute path a call's `path` names, where the tools resolve it (`~` too); default: against
   * `cwd`. undefined: which file it is cannot be told (a link not resolved in time), so the call is
   * ordered as a command is, with every file call around it.
   */
  pathOf?(path: string): string | undefined;
  parallel: boolean;
  /** the reply stopped at the model's output token limit: a call whose arguments are not whole JSON was cut off there (CUT_OFF_CALL) */
  cutOff?: boolean;
  /**
   * a tool `tools` does not hold that a call may still name (LoopDeps.unlisted), given the names
   * `tools` holds (a near miss of one is a typo); undefined: the call is answered as an unknown
   * tool. Asked once per call, before the turn's calls run.
   */
  unlisted?(name: string, offered: readonly string[]): Tool | undefined;
  /** the calls made in a row before this turn's, with their results (repeats.ts callSteps); absent: none */
  repeats?: readonly Step[];
}

/**
 * At most this many calls of one turn run at once. A model can ask for hundreds in one turn; each
 * bash call holds several file descriptors (three pipes, a spill file), and 1000 at once ran out
 * of them (EMFILE) under a 1024 limit, 100 under macOS' 256. Eight keeps a turn's I/O-bound calls
 * overlapping while staying far below any descriptor limit.
 */
export const MAX_CONCURRENT_CALLS = 8;

/** The result of a call that never got one: hey stopped (crash, kill) or the history came from elsewhere. */
export const NO_RESULT = "interrupted: hey stopped before this call finished";

/**
 * The result of a call the user stopped, when hey quit before it ended (a second Ctrl-C while it
 * ignored its cancel): the words of a cancel that ends in time (`[interrupted by user; …]`), and
 * that the user, not a crash, stopped it — a model told only that hey stopped runs it again.
 */
export function userStopped(reason: string): string {
  return `${reason}: the user stopped this call before it finished, and hey quit while it ran; it may have done part of its work. Do not run it again unless the user asks`;
}

/**
 * The result of a call the abort came before (a batch's later calls): it never started, so nothing
 * it would do was done — unlike a call the abort cut short, which may have done part of its work.
 */
export function notStarted(signal: AbortSignal): string {
  return `not run: ${abortReason(signal)} before it started`;
}

/**
 * The assistant message as the history keeps it (issue 13 row 12): a tool-call id that another
 * call of the same turn or an earlier call in `history` already uses gets a suffix (`call_1` →
 * `call_1_2`), so every call keeps its own result. Returns `message` itself when all ids are new.
 */
export function withUniqueCallIds(message: Message, history: readonly Message[]): Message {
  const calls = message.toolCalls;
  if (!calls?.length) return message;
  const earlier = callIdsIn(history);
  const taken = new Set<string>(); // this message's
  let changed = false;
  const unique = calls.map((c) => {
    let id = c.id;
    for (let n = 2; earlier.has(id) || taken.has(id); n++) id = `${c.id}_${n}`;
    taken.add(id);
    if (id === c.id) return c;
    changed = true;
    return { ...c, id };
  });
  return changed ? { ...message, toolCalls: unique } : message;
}

/**
 * The call ids of `history`, kept as it grows: the loop asks with the same append-only array for
 * every reply, and a long session's thousands of ids were gathered again each time (x119 #4). An
 * array found shorter, or with another message where the last counted one was, is counted again.
 */
function callIdsIn(history: readonly Message[]): ReadonlySet<string> {
  let kept = callIds.get(history);
  if (!kept || kept.counted > history.length || (kept.counted > 0 && history[kept.counted - 1] !== kept.last))
    kept = { counted: 0, last: undefined, ids: new Set() };
  for (let i = kept.counted; i < history.length; i++) for (const c of history[i]!.toolCalls ?? []) kept.ids.add(c.id);
  callIds.set(history, { counted: history.length, last: history.at(-1), ids: kept.ids });
  return kept.ids;
}

const callIds = new WeakMap<readonly Message[], { counted: number; last: Message | undefined; ids: Set<string> }>();

/**
 * The result of a call cut off by the output token limit in the middle of its arguments: not run
 * (half the arguments could be a valid, wrong call), and the model is told why and how to fit.
 */
export const CUT_OFF_CALL =
  "not run: the answer reached the model's output token limit in the middle of this call, so its arguments are incomplete. Make the call again with less in it: split the work into smaller calls (a long file: write its first part, then add the rest with edit)";

/** A synthetic error result for `call` (a call must never go to a model without one). */
export function syntheticResult(call: Pick<ToolCall, "id" | "name">, id: string, text = NO_RESULT): Message {
  return { id, role: "tool", toolCallId: call.id, toolName: call.name, isError: true, content: [{ type: "text", text }] };
}

/**
 * Runs one turn's calls and returns their result messages in the order the calls finished — the
 * session file's order, so the history and the file agree (a summary's range ends where the file's
 * does); requests carry them in call order (adapt-history.ts). All `tool_call`
 * events are emitted first, in call order; each result message is emitted (a `message` event, for
 * the session writer) as soon as its call is done, whatever the order — a hey killed mid-turn keeps
 * the results of the calls that finished, and the model is not told they never ran — so the caller
 * adds the returned messages to the history without emitting them again; `tool_result` events
 * go out in call order, each as soon as it and every earlier call are done (before the result
 * message of the call that completed them). With `parallel`, up to MAX_CONCURRENT_CALLS calls
 * run at once (started in call order), except that calls naming the same `path` run one after
 * another in call order, an `exclusive` tool runs alone, a call that may change anything (its
 * tool's `readOnly` says no: `git add`, `npm install`, an MCP write) runs after every call before it and before
 * every call after it, and calls on files keep their order with the commands around them: a call
 * without a `path` (a command, which may read or change any file) runs after the calls with a path
 * before it and before those after it (read-only commands side by side still run at once, as do
 * file calls), and a call on a directory after the edit and write_file calls before it on files inside it.
 * A call identical to those of the REPEAT_NOTE_AT - 1 turns before it (`deps.repeats`, then the turn's own; repeats.ts)
 * gets repeatNote at the end of its result message — not in its `tool_result`, which shows what the tool printed.
 * A call identical to an earlier one of the same turn with no call that may change anything between them
 * (repeats.ts firstOfSame) does not run: its `tool_call` names that one (`same_as`), and once that one is
 * done the copy's result says so, with its outcome (ok or not).
 */
export async function runToolCalls(calls: ToolCall[], deps: ToolRunDeps): Promise<Message[]> {
  const found = calls.map(
    (c) =>
      deps.tools.find((t) => t.name === c.name) ??
      deps.unlisted?.(
        c.name,
        deps.tools.map((t) => t.name),
      ),
  );
  const parsed = calls.map((c) => parseArguments(c.arguments));
  // a command that may change anything (`git add` beside `git commit`: index.lock), or an MCP tool its server
  // does not call read-only (even with a `path`: the server reads it against its own root), runs alone, in call order
  // asked only when the turn has other calls: a lone call runs alone anyway, and the question costs bash a parse
  const exclusive = calls.map(
    (_, i) => found[i]?.exclusive === true || (calls.length > 1 && parsed[i] !== undefined && found[i]?.readOnly?.(parsed[i]) === false),
  );
  // what a call changes, a later identical one may be meant to see (`npm test`, edit, `npm test`): that one runs
  const firsts = firstOfSame(calls, (i) => exclusive[i]! || FILE_CHANGES.has(found[i]?.name ?? ""));
  for (const [i, c] of calls.entries()) {
    const server = found[i]?.server;
    const first = firsts[i];
    deps.output.emit({
      type: "tool_call",
      id: c.id,
      name: c.name,
      arguments: c.arguments,
      ...(server ? { server } : {}),
      ...(first !== undefined ? { same_as: calls[first]!.id } : {}),
    });
  }
  const results: (Ran | undefined)[] = calls.map(() => undefined);
  const done: Message[] = []; // the result messages in the order their calls finished: as the session has them
  let shown = 0; // the calls whose tool_result is out
  const steps: (Step | undefined)[] = calls.map(() => undefined); // the turn's calls done so far, for repeatCount (their turn: `calls`)
  /** a call done: the tool_results now in call order go out, then its result message (for the session) */
  const finished = (i: number, result: Ran): Message => {
    results[i] = result;
    for (let r = results[shown]; shown < calls.length && r; r = results[++shown]) {
      const call = calls[shown]!;
      deps.output.emit({ type: "tool_result", id: call.id, name: call.name, ok: !r.isError, output: r.output, ...(r.refused ? { refused: r.refused } : {}) });
    }
    // the model is told when it repeats itself (in the result it reads); the user sees what the tool printed, and a notice
    // a copy is its first call's step (one turn's identical calls count once), told nothing more
    const first = firsts[i];
    steps[i] = first !== undefined ? steps[first] : stepOf(calls[i]!, result.output, Boolean(result.isError), calls);
    const repeats = first !== undefined ? 0 : repeatCount([...(deps.repeats ?? []), ...steps.slice(0, i)], steps[i]!);
    if (repeats === REPEAT_NOTE_AT) deps.output.emit({ type: "notice", message: repeatNotice(calls[i]!.name, repeats) });
    const message = toolMessage(calls[i]!, repeats >= REPEAT_NOTE_AT ? { ...result, output: result.output + repeatNote(repeats) } : result);
    done.push(message);
    deps.output.emit({ type: "message", message });
    return message;
  };
  const started: Promise<Message>[] = [];
  const slot = limitConcurrency(MAX_CONCURRENT_CALLS);
  const lastOnPath = new Map<string, Promise<unknown>>();
  const changes: { path: string; task: Promise<unknown> }[] = []; // the turn's edit and write_file calls so far
  const onPaths: Promise<unknown>[] = []; // its calls with a path so far
  const commands: Promise<unknown>[] = []; // its calls without a path so far
  let barrier: Promise<unknown> = Promise.resolve();
  for (const [i, call] of calls.entries()) {
    const first = firsts[i];
    if (first !== undefined) {
      // not run again: answered once its first is done, with that one's outcome (the model reads its result above)
      started.push(started[first]!.then((m) => finished(i, { output: sameCallResult(first), isError: m.isError })));
      continue;
    }
    const tool = found[i];
    const args = parsed[i];
    // one file named two ways (`a.txt`, `./a.txt`, `~/…`, absolute) is one file: order by where it is
    const named = callPath(args); // `file_path` too: it becomes `path` only when the call is checked
    const path = named !== undefined ? (deps.pathOf ? deps.pathOf(named) : resolvePath(deps.cwd, named)) : undefined;
    const changesFile = path !== undefined && FILE_CHANGES.has(call.name);
    let before: Promise<unknown> = barrier;
    if (!deps.parallel || exclusive[i]) before = Promise.allSettled(started);
    else {
      const after = [barrier];
      if (path === undefined) after.push(...onPaths);
      else {
        if (lastOnPath.has(path)) after.push(lastOnPath.get(path)!);
        after.push(...changes.filter((c) => isInside(c.path, path)).map((c) => c.task), ...commands);
      }
      if (after.length > 1) before = Promise.allSettled(after);
    }
    const task = before.then(() => slot(() => runOne(call, tool, args, deps))).then((result) => finished(i, result));
    started.push(task);
    if (path !== undefined) lastOnPath.set(path, task);
    if (changesFile) changes.push({ path, task });
    (path === undefined ? commands : onPaths).push(task);
    if (exclusive[i]) barrier = task.catch(() => {});
  }
  await Promise.all(started);
  return done;
}

/** The built-ins that change the file their `path` names. */
const FILE_CHANGES = new Set<string>([TOOL.edit, TOOL.writeFile]);

/** Whether `path` lies below directory `dir` (either separator). */
const isInside = (path: string, dir: string) => path.length > dir.length && path.startsWith(dir) && /[\\/]/.test(path[dir.length]! + dir.at(-1));

/**
 * A gate that lets at most `n` of the functions passed to it run at once; the others wait, and
 * start in the order they were passed. A function only holds its place while it runs.
 */
export function limitConcurrency(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (running >= n) await new Promise<void>((start) => waiting.push(start));
    else running++;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next)
        next(); // the place passes on: `running` stays the same
      else running--;
    }
  };
}

function toolMessage(call: ToolCall, result: ToolResult): Message {
  return {
    id: newId(),
    role: "tool",
    toolCallId: call.id,
    toolName: call.name,
    isError: Boolean(result.isError),
    content: [{ type: "text", text: result.output }, ...(result.images ?? []), ...(result.documents ?? [])],
  };
}

/** A call's result, and what refused it, when something did (the call never ran): the permission rules or plan mode. */
type Ran = ToolResult & { refused?: Refuser };

/** What a refusal in plan mode starts with (permission/plan-mode.ts writes it; ui/tool-lines.ts shows its words as a refusal, not a failure). */
export const PLAN_PREFIX = "blocked by plan mode:";

async function runOne(call: ToolCall, tool: Tool | undefined, args: Record<string, unknown> | undefined, deps: ToolRunDeps): Promise<Ran> {
  if (deps.signal.aborted) return { output: notStarted(deps.signal), isError: true };
  if (!tool) return { output: unknownTool(call.name, deps.tools), isError: true };
  if (!args && deps.cutOff) return { output: `${call.name}: ${CUT_OFF_CALL}`, isError: true };
  if (!args) return { output: invalidArguments(call), isError: true };
  // hey's own tools refuse arguments they do not take (a misnamed one was silently ignored); an MCP server's schema is its own
  const builtin = tool.server === undefined && BUILTIN_TOOLS.includes(tool.name);
  const checked = checkArguments(call.name, args, tool.parameters, builtin, tool.inDirectory?.bind(tool));
  if ("error" in checked) return { output: checked.error, isError: true };
  const refusal = deps.permission(call.name, checked.args);
  if (refusal !== undefined) return { output: refusal, isError: true, refused: refusal.startsWith(PLAN_PREFIX) ? "plan" : "permission" };
  deps.output.emit({ type: "tool_start", id: call.id });
  try {
    const progress = (note: string) => deps.output.emit({ type: "tool_progress", id: call.id, note });
    const output = (lines: string[]) => deps.output.emit({ type: "tool_output", id: call.id, lines });
    const refusedFile = tool.server === undefined ? deps.permission.files?.(call.name, checked.args) : undefined;
    return await tool.run(checked.args, { signal: deps.signal, cwd: deps.cwd, callId: call.id, progress, output, ...(refusedFile ? { refusedFile } : {}) });
  } catch (e) {
    if (deps.signal.aborted) return { output: abortReason(deps.signal), isError: true };
    return { output: `${call.name} failed: ${errorText(e)}`, isError: true };
  }
}

/** How much of arguments that could not be read their error quotes. */
const QUOTED_ARGUMENTS_CHARS = 200;

/** The result of a call whose arguments are no JSON object even after the repairs (call-arguments.ts): why, and what was sent (the history shows `{}` for them). */
function invalidArguments(call: ToolCall): string {
  const read = readArguments(call.arguments);
  const why = "error" in read ? read.error : "expected a JSON object";
  const raw = call.arguments.length > QUOTED_ARGUMENTS_CHARS ? `${call.arguments.slice(0, QUOTED_ARGUMENTS_CHARS)}…` : call.arguments;
  return `invalid arguments for ${call.name}: ${why}. Nothing ran. The arguments as you sent them: ${JSON.stringify(raw)}. Send them again as one JSON object.`;
}

/** The result of a call to a tool that is not there: the one it was likely meant as, and those there are. */
function unknownTool(name: string, tools: readonly Tool[]): string {
  const names = tools.map((t) => t.name);
  const near = nearestTool(name, names);
  return `unknown tool "${name}"; ${near ? `did you mean ${near}? Available` : "available"}: ${names.join(", ")}`;
}
