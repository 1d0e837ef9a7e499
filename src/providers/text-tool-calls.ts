// Tool calls a model wrote into its answer's text because the server did not parse them out of it:
// vLLM without --enable-auto-tool-choice --tool-call-parser, llama.cpp without --jinja, an Ollama
// model whose template has no tools. The model then writes its chat template's call syntax as
// text, and the server ends the answer with finish_reason "stop". Pure; text-call-stream.ts applies it.
import { readArguments } from "../kernel/call-arguments.ts";
import { toolNameOf } from "../kernel/call-names.ts";
import type { ToolSpec } from "../kernel/ir.ts";
import { insideCode, placedAsCall } from "./text-call-code.ts";

/** A call syntax a chat template writes, by what the notice calls it. */
export type CallTemplate = "hermes" | "function" | "deepseek" | "mistral";

/**
 * The syntax of a call inside its block, which decides the server's parser: Hermes' JSON, Qwen3-Coder's
 * `<function=NAME><parameter=…>`, GLM-4.5's `NAME<arg_key>…`, Llama 3.1's `<function=NAME>{…}`,
 * DeepSeek V3's `function<｜tool▁sep｜>NAME` and V3.1's `NAME<｜tool▁sep｜>`, Mistral's.
 */
export type CallFormat = "hermes" | "qwen3-coder" | "glm" | "llama" | "deepseek-v3" | "deepseek-v3.1" | "mistral";

/** What an answer's text holds when it holds tool calls written as text. */
export interface TextCalls {
  template: CallTemplate;
  /** the syntax of its first call */
  format: CallFormat;
  /** the answer's text without its calls: the prose around them, in order (proseAround) */
  before: string;
  /** each call names an offered tool and has an object of arguments (JSON text); empty when `problem` is set */
  calls: { name: string; arguments: string }[];
  /** why the calls cannot run (a tool not offered, arguments that are no JSON object): then none runs */
  problem?: string;
}

const HERMES = "<tool_call>";
const HERMES_END = "</tool_call>";
const FUNCTION = "<function=";
const FUNCTION_END = "</function>";
const DS_CALLS = "<｜tool▁calls▁begin｜>";
const DS_CALLS_END = "<｜tool▁calls▁end｜>";
const DS_CALL = "<｜tool▁call▁begin｜>";
const DS_CALL_END = "<｜tool▁call▁end｜>";
const DS_SEP = "<｜tool▁sep｜>";
const MISTRAL = "[TOOL_CALLS]";

/** What opens a call in each template: the stream holds text back from the first of these (text-call-stream.ts). */
export const CALL_OPENERS: readonly string[] = [HERMES, FUNCTION, DS_CALLS, DS_CALL, MISTRAL];

/** The end of each opener's block; Mistral's calls run to the end of the answer. */
const END_OF: Record<string, string | undefined> = { [HERMES]: HERMES_END, [FUNCTION]: FUNCTION_END, [DS_CALLS]: DS_CALLS_END, [DS_CALL]: DS_CALL_END };

/**
 * How what follows each opener starts when it is a call (checked once a character other than
 * whitespace came): Hermes' JSON or `<function=` or GLM's function name then a tag, a function's
 * name then `>` then JSON or `<parameter=`, Mistral's JSON list or object or `NAME[`. DeepSeek's
 * tokens are never prose.
 */
const START_OF: Record<string, RegExp> = {
  [HERMES]: /^\s*(?:$|[{<]|[\w.-]+\s*(?:$|<))/, // GLM-4.5's `NAME\n<arg_key>…`
  [FUNCTION]: /^[^\s<>]*(?:$|>\s*(?:$|[{<]))/,
  [DS_CALLS]: /^/,
  [DS_CALL]: /^/,
  [MISTRAL]: /^\s*(?:$|[[{]|[^\s[\]{}]+(?:$|\[))/,
};

/**
 * Where the call block that opens at `at` of `text` (a position openerAt found) ends: its end, "open"
 * while more text may still make it one (the answer still streaming: `done` false), undefined when it
 * is none (prose naming the syntax, `<tool_call> tags`). Mistral's calls, DeepSeek's without their
 * end token and an answer's last `<tool_call>` whose end tag a server ate as a stop word (its content
 * whole JSON) run to the end of the answer. Once undefined, no more text makes it a block.
 */
export function blockEnd(text: string, at: number, done: boolean): number | "open" | undefined {
  const opener = CALL_OPENERS.find((o) => text.startsWith(o, at));
  if (!opener) return undefined;
  const after = text.slice(at + opener.length);
  if (!START_OF[opener]!.test(after)) return undefined;
  const end = END_OF[opener];
  const close = end ? after.indexOf(end) : -1;
  if (end && after.slice(0, close === -1 ? undefined : close).includes(opener)) return undefined; // an opener in prose, a block after it
  if (close !== -1) return at + opener.length + close + end!.length;
  if (!done) return "open";
  if (after.trim() === "" || opener === FUNCTION || opener === DS_CALL) return undefined; // a block never closed
  if (opener !== HERMES) return text.length; // Mistral's calls, DeepSeek's without their end token
  const whole = "args" in readArguments(after) || after.trimStart().startsWith(FUNCTION) || after.trimEnd().endsWith(GLM_VALUE_END);
  return whole ? text.length : undefined;
}

const TEMPLATE_OF: Record<string, CallTemplate> = {
  [HERMES]: "hermes",
  [FUNCTION]: "function",
  [DS_CALLS]: "deepseek",
  [DS_CALL]: "deepseek",
  [MISTRAL]: "mistral",
};

/**
 * Where the first call opener of `text` at or after `from` is that could start calls: placed as a
 * model writes a call (at the start of a line, not in a `>` quote: placedAsCall), not inside a code
 * block (insideCode); -1 when there is none.
 */
export function openerAt(text: string, from = 0): number {
  let first = -1;
  for (const opener of CALL_OPENERS)
    for (let i = text.indexOf(opener, from); i !== -1 && (first === -1 || i < first); i = text.indexOf(opener, i + 1))
      if (placedAsCall(text, i, opener !== HERMES && opener !== FUNCTION) && !insideCode(text, i)) {
        first = i;
        break;
      }
  return first;
}

/** A call block of an answer: where it is and the bodies of the calls it holds. */
export interface CallSpan {
  start: number;
  end: number;
  template: CallTemplate;
  bodies: string[];
}

/**
 * The call blocks of `text`, a whole answer that ends with one (only whitespace after it), in order:
 * every block of a chat template's call syntax starting a line (or right after the block before it)
 * outside code, with prose between them or not (vLLM's hermes parser reads every `<tool_call>` of an
 * answer too). None when prose follows the last block: a call the model quotes or asks about
 * ("Do you want me to run it?", "I will not run that") is no call it makes.
 */
export function callSpans(text: string): CallSpan[] {
  const out: CallSpan[] = [];
  for (let at = openerAt(text); at !== -1; ) {
    const end = blockEnd(text, at, true);
    const template = TEMPLATE_OF[CALL_OPENERS.find((o) => text.startsWith(o, at))!]!;
    const bodies = typeof end === "number" ? bodiesOf(template, text.slice(at, end)) : undefined;
    if (!bodies?.length) {
      at = openerAt(text, at + 1);
      continue;
    }
    out.push({ start: at, end: end as number, template, bodies });
    const next = text.length - text.slice(end as number).trimStart().length; // `</tool_call><tool_call>` on one line
    at = CALL_OPENERS.some((o) => text.startsWith(o, next)) ? next : openerAt(text, end as number);
  }
  return out.length && text.slice(out.at(-1)!.end).trim() === "" ? out : [];
}

/** `text` from `from` on without `spans`: the prose around them in order, each part trimmed, parted by a blank line. */
export function proseAround(text: string, spans: readonly CallSpan[], from = 0): string {
  const parts: string[] = [];
  for (const span of spans) if (span.start >= from) parts.push(text.slice(from, span.start)), (from = span.end);
  parts.push(text.slice(from));
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .join("\n\n");
}

/**
 * The tool calls `text` holds, written in a chat template's syntax (Hermes/Qwen `<tool_call>{"name":
 * …, "arguments": …}</tool_call>`, Llama's `<function=NAME>{…}</function>`, Qwen3-Coder's
 * `<function=NAME><parameter=K>V</parameter></function>`, DeepSeek's tool-call tokens, Mistral's
 * `[TOOL_CALLS]`) starting lines outside code, the answer ending with one (callSpans), the prose
 * around them kept as the answer's text; undefined when it holds none — the syntax inside code, in a
 * quote or followed by prose is an answer about it. A call
 * naming a tool `tools` does not offer, or with arguments that are no JSON object, gives `problem`
 * and no calls. Never throws.
 */
export function textToolCalls(text: string, tools: readonly ToolSpec[]): TextCalls | undefined {
  const spans = callSpans(text);
  if (spans.length === 0) return undefined;
  const before = proseAround(text, spans);
  const template = spans[0]!.template;
  const format = formatOf(template, spans[0]!.bodies[0]!);
  const calls: TextCalls["calls"] = [];
  for (const [n, span] of spans.entries())
    for (const body of span.bodies) {
      const call = callOf(span.template, body, tools);
      const named = typeof call === "string" ? call : checked(call, tools);
      if (typeof named === "string")
        return { template, format, before, calls: [], problem: spans.length > 1 ? `${named} (block ${n + 1} of ${spans.length})` : named };
      calls.push(named);
    }
  return { template, format, before, calls };
}

/** The syntax of the first call `text` holds, if any. */
export function textCallFormat(text: string): CallFormat | undefined {
  const span = callSpans(text)[0];
  return span && formatOf(span.template, span.bodies[0]!);
}

/** The syntax of `body`, a call of `template`. */
function formatOf(template: CallTemplate, body: string): CallFormat {
  const inner = body.trimStart();
  if (template === "deepseek") return inner.startsWith(`function${DS_SEP}`) ? "deepseek-v3" : "deepseek-v3.1";
  if (template === "mistral") return "mistral";
  if (template === "function") return /^[^>]*>\s*<parameter=/.test(inner) ? "qwen3-coder" : "llama";
  return inner.startsWith(FUNCTION) ? "qwen3-coder" : inner.startsWith("{") ? "hermes" : "glm";
}

/** The call bodies of `block` (an opener of `template` to its block's end); undefined when it holds anything else. */
function bodiesOf(template: CallTemplate, block: string): string[] | undefined {
  if (template === "hermes") {
    const body = block.slice(HERMES.length).replace(/<\/tool_call>$/, "");
    return HERMES_BODY.test(body) ? [body] : undefined;
  }
  if (template === "function") return blocks(block, FUNCTION, FUNCTION_END);
  return template === "deepseek" ? deepseekBodies(block) : mistralBodies(block);
}

/** What a `<tool_call>` holds: JSON, `<function=`, or GLM's name then its arguments or a line break (`<tool_call>bash</tool_call>` is a word in prose). */
const HERMES_BODY = /^\s*(?:[{<]|[\w.-]+(?:\s*<arg_key>|\n\s*$))/;

/** One body of `template` as a call, or why it is none. */
function callOf(template: CallTemplate, body: string, tools: readonly ToolSpec[]): { name: string; arguments: string } | string {
  if (template === "deepseek") return deepseekCall(body);
  if (template === "mistral") return mistralCall(body);
  if (template !== "hermes" || body.trimStart().startsWith(FUNCTION)) return functionCall(body, tools);
  return /^\s*[{[]/.test(body) ? hermesCall(body) : glmCall(body, tools);
}

const GLM_VALUE_END = "</arg_value>";

/** GLM-4.5/4.6's `NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>…` (inside `<tool_call>`), its values typed by the tool's schema. */
function glmCall(body: string, tools: readonly ToolSpec[]): { name: string; arguments: string } | string {
  const [, name = "", rest = ""] = /^\s*([^\s<]+)([\s\S]*)$/.exec(body) ?? [];
  const args = taggedArguments(rest, /<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)<\/arg_value>/g, toolOf(name, tools));
  return args === undefined ? `the arguments of ${name} are no <arg_key>/<arg_value> pairs` : { name, arguments: args };
}

/** The offered tool `name` means, if any. */
function toolOf(name: string, tools: readonly ToolSpec[]): ToolSpec | undefined {
  const offered = toolNameOf(
    name,
    tools.map((t) => t.name),
  );
  return tools.find((t) => t.name === offered);
}

/** `text` made of `pattern`'s key/value pairs (and whitespace) as JSON arguments, each value typed by `tool`'s schema; undefined when anything else is there. */
function taggedArguments(text: string, pattern: RegExp, tool: ToolSpec | undefined): string | undefined {
  const props = schemaProperties(tool);
  const args: Record<string, unknown> = {};
  let left = text;
  for (const [whole, key, raw] of text.matchAll(pattern)) {
    args[key!.trim()] = typedValue(raw!.replace(/^\n|\n$/g, ""), props[key!.trim()]);
    left = left.replace(whole, "");
  }
  return left.trim() === "" ? JSON.stringify(args) : undefined;
}

/**
 * `call` under the offered tool its name means (`Bash`: bash, as for a native call), or why it
 * cannot run: a tool not offered, arguments that are no JSON object even as a native call's are
 * read (a trailing comma is; the loop repairs them as it does a native call's).
 */
function checked(call: { name: string; arguments: string }, tools: readonly ToolSpec[]): { name: string; arguments: string } | string {
  const offered = tools.map((t) => t.name);
  const name = toolNameOf(call.name, offered);
  if (name === undefined || !offered.includes(name)) return `it names ${JSON.stringify(call.name)}, which is no tool offered`;
  const read = readArguments(call.arguments);
  return "error" in read ? `the arguments of ${name} are no JSON object: ${read.error}` : { name, arguments: call.arguments };
}

/** The contents of `open…end` blocks making up all of `tail` but whitespace; undefined if anything else is there. */
function blocks(tail: string, open: string, end: string): string[] | undefined {
  const out: string[] = [];
  let rest = tail.trim();
  while (rest !== "") {
    if (!rest.startsWith(open)) return undefined;
    const close = rest.indexOf(end, open.length);
    if (close === -1 || rest.slice(open.length, close).includes(open)) return undefined; // an opener in prose, a block after it
    out.push(rest.slice(open.length, close)); // of `<function=NAME>…`: `NAME>…`
    rest = rest.slice(close + end.length).trimStart();
  }
  return out;
}

/** DeepSeek's calls: `<｜tool▁calls▁begin｜>` (optional) around `<｜tool▁call▁begin｜>…<｜tool▁call▁end｜>` blocks. */
function deepseekBodies(tail: string): string[] | undefined {
  let inner = tail.trim();
  if (inner.startsWith(DS_CALLS)) inner = inner.slice(DS_CALLS.length);
  if (inner.trimEnd().endsWith(DS_CALLS_END)) inner = inner.trimEnd().slice(0, -DS_CALLS_END.length);
  return blocks(inner, DS_CALL, DS_CALL_END);
}

/**
 * Mistral's calls after each `[TOOL_CALLS]`: a JSON list of `{"name", "arguments"}` (one body each), or
 * `NAME[ARGS]{…}` (its newer tokenizers, a `[CALL_ID]…` perhaps before `[ARGS]`); undefined when a
 * part is neither (prose about the token).
 */
function mistralBodies(tail: string): string[] | undefined {
  const out: string[] = [];
  for (const part of tail
    .split(MISTRAL)
    .slice(1)
    .map((p) => p.trim())) {
    if (!part.startsWith("[")) {
      if (!MISTRAL_CALL.test(part) && !part.startsWith("{")) return undefined;
      out.push(part);
      continue;
    }
    const list = listOf(part);
    out.push(...(list ? list.map((c) => JSON.stringify(c)) : [part]));
  }
  return out;
}

const MISTRAL_CALL = /^([^\s[\]{}]+)(?:\[CALL_ID\][^[]*)?\[ARGS\]([\s\S]*)$/;

/** One of mistralBodies' parts as a call, or why it is none. */
function mistralCall(body: string): { name: string; arguments: string } | string {
  if (body.startsWith("[")) return "its calls are no JSON list";
  if (body.startsWith("{")) return hermesCall(body);
  const [, name, args] = MISTRAL_CALL.exec(body)!;
  return { name: name!, arguments: args!.trim() || "{}" };
}

/** `text` as a JSON list; undefined when it is not one. */
function listOf(text: string): unknown[] | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** `{"name": …, "arguments": {…}}` (or `parameters`, or arguments as a JSON string), or why it is not one. */
function hermesCall(body: string): { name: string; arguments: string } | string {
  const read = readArguments(body);
  const call = "args" in read ? read.args : undefined;
  if (!call || typeof call.name !== "string") return `its call is no JSON object with a name${"error" in read ? ` (${read.error})` : ""}`;
  const args = call.arguments ?? call.parameters ?? {};
  return { name: call.name, arguments: typeof args === "string" ? args : JSON.stringify(args) };
}

/** `NAME>{…}` or `NAME><parameter=K>V</parameter>…` (a `<function=` block without its opener and end). */
function functionCall(body: string, tools: readonly ToolSpec[]): { name: string; arguments: string } | string {
  const text = body.trimStart().startsWith(FUNCTION)
    ? body
        .trimStart()
        .slice(FUNCTION.length)
        .replace(/<\/function>\s*$/, "")
    : body;
  const gt = text.indexOf(">");
  if (gt === -1) return "its call names no function";
  const name = text.slice(0, gt).trim();
  const rest = text.slice(gt + 1).trim();
  if (rest === "" || rest.startsWith("{")) return { name, arguments: rest || "{}" };
  const args = taggedArguments(rest, /<parameter=([^>]+)>([\s\S]*?)<\/parameter>/g, toolOf(name, tools));
  return args === undefined ? `the arguments of ${name} are neither JSON nor <parameter=…> tags` : { name, arguments: args };
}

/** `function<｜tool▁sep｜>NAME\n```json\n{…}\n```` (V3) or `NAME<｜tool▁sep｜>{…}` (V3.1). */
function deepseekCall(body: string): { name: string; arguments: string } | string {
  const sep = body.indexOf(DS_SEP);
  if (sep === -1) return "its call has no tool separator";
  const left = body.slice(0, sep).trim();
  let right = body.slice(sep + DS_SEP.length);
  let name = left;
  if (left === "function") {
    const nl = right.indexOf("\n");
    name = (nl === -1 ? right : right.slice(0, nl)).trim();
    right = nl === -1 ? "" : right.slice(nl + 1);
  }
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(right);
  return { name, arguments: (fenced ? fenced[1]! : right).trim() || "{}" };
}

/** A `<parameter>` value as the tool's schema types it: a string stays a string, anything else is read as JSON when it is. */
function typedValue(raw: string, schema: unknown): unknown {
  const type = (schema as { type?: unknown } | undefined)?.type;
  if (type === "string" || type === undefined) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function schemaProperties(tool: ToolSpec | undefined): Record<string, unknown> {
  const props = tool?.parameters.properties;
  return typeof props === "object" && props !== null ? (props as Record<string, unknown>) : {};
}
