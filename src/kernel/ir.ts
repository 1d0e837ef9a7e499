// The protocol-agnostic message IR (SPEC §4). Every adapter maps its vendor's wire format to and
// from these types; nothing outside src/providers/ knows a vendor's shapes.
import { readArguments } from "./call-arguments.ts";

/** The four wire protocols hey speaks. */
export const PROTOCOLS = ["openai", "responses", "anthropic", "google"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/**
 * Vendor state that must travel back to the vendor unchanged (a thinking signature, an
 * encrypted reasoning item, a Gemini thought signature). Only the provider, protocol and model
 * that produced it may receive it again; `kernel/adapt-history.ts` decides that. `data` is opaque
 * outside the adapter of `protocol`.
 */
export interface Opaque {
  protocol: Protocol;
  model: string;
  /**
   * the name of the provider that produced it (Provider.name): an encrypted reasoning item or a
   * signature is bound to the account that issued it, so two providers serving one model under
   * one protocol (OpenAI and Azure) are not one. Absent in sessions written before hey recorded it
   * and from providers without a name: then protocol and model decide alone.
   */
  provider?: string;
  data?: unknown;
}

export interface TextPart {
  type: "text";
  text: string;
}

/** Model reasoning. `text` is what the user may see; `opaque` is what the vendor needs back. */
export interface ThinkingPart {
  type: "thinking";
  text: string;
  opaque?: Opaque;
}

export interface ImagePart {
  type: "image";
  mediaType: string;
  /** base64, no data: prefix */
  data: string;
}

/**
 * A PDF the model reads whole (text and page images) on the APIs that take one; elsewhere it goes as a
 * line saying it was not sent. `name` is the file as the user or model named it; `pages` as counted
 * from its bytes (fs/pdf-bytes.ts), for weighing it in the context: absent when they could not be told.
 */
export interface DocumentPart {
  type: "document";
  mediaType: "application/pdf";
  /** base64, no data: prefix */
  data: string;
  name: string;
  pages?: number;
}

export type ContentBlock = TextPart | ThinkingPart | ImagePart | DocumentPart;

/** A complete tool call: `arguments` is the raw JSON text the model produced. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
  opaque?: Opaque;
}

export type Role = "system" | "user" | "assistant" | "tool";

/**
 * One message of a conversation. `id` is stable for the life of the session (sessions, the
 * compress tool and pruning name messages by it). `toolCalls` only on assistant messages;
 * `toolCallId`/`toolName`/`isError` only on tool messages.
 */
export interface Message {
  id: string;
  role: Role;
  content: ContentBlock[];
  toolCalls?: ToolCall[];
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
}

/**
 * Token counts of one model response; absent counts are 0. `input` counts every input token of
 * the request, cached ones included (`cacheRead`/`cacheWrite` are parts of it); `reasoning` is
 * part of `output`.
 */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  /**
   * the provider reported no counts (a stream without usage, or one cut before it came): `input` and
   * `output` are estimates of the request sent and the answer received, 0 until the caller that holds
   * the estimator fills them in (`unreportedUsage`); a sum with any estimated part is estimated
   */
  estimated?: true;
}

/**
 * Why a model response ended. Vendor reasons that fit none of these map to "other".
 * "malformed_call": the model tried a tool call its provider could not parse, so no call came
 * (`done.detail` says what the provider said of it); the loop tells the model and lets it try again.
 */
export type StopReason = "stop" | "tool_calls" | "length" | "refusal" | "malformed_call" | "other";

/** What the model is offered as a tool: a name, a short contract and a JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export const EFFORTS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
export type Effort = (typeof EFFORTS)[number];

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
}

/** The usage of a response whose provider reported none: to be estimated (Usage.estimated). */
export function unreportedUsage(): Usage {
  return { ...emptyUsage(), estimated: true };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    reasoning: a.reasoning + b.reasoning,
    ...(a.estimated || b.estimated ? { estimated: true as const } : {}),
  };
}

let lastStamp = 0;
let counter = 0;

/**
 * A new message or session id: sortable by creation time (base36 milliseconds, then a
 * per-millisecond counter), then random, so ids from two processes never collide.
 */
export function newId(now: number = Date.now()): string {
  if (now === lastStamp) counter++;
  else {
    lastStamp = now;
    counter = 0;
  }
  const rand = crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36).padStart(7, "0");
  return now.toString(36).padStart(9, "0") + counter.toString(36).padStart(3, "0") + rand;
}

export function textOf(message: Pick<Message, "content">): string {
  let out = "";
  for (const part of message.content) if (part.type === "text") out += part.text;
  return out;
}

export function userMessage(content: string | ContentBlock[]): Message {
  return { id: newId(), role: "user", content: typeof content === "string" ? [{ type: "text", text: content }] : content };
}

/**
 * A tool call's `arguments` as an object: "" counts as `{}`, and the slips with one meaning are
 * repaired (call-arguments.ts: a code fence, trailing commas, Python literals…); undefined when
 * they are not an object even so. Never throws.
 */
export function parseArguments(text: string): Record<string, unknown> | undefined {
  const read = readArguments(text);
  return "args" in read ? read.args : undefined;
}
