// The message of a session line, checked for every field a request is built from (SPEC §19): a
// line edited by hand, or written by a newer hey with a kind of content this one does not know,
// must never reach an adapter half-formed (a text part without its text stopped `hey -c` with an
// internal error). Pure.
import type { ContentBlock, Message, ToolCall } from "../kernel/ir.ts";

const ROLES = new Set(["user", "assistant", "tool", "system"]);
/** Content kinds hey writes; a part of another kind came from a newer hey. */
const KINDS = new Set(["text", "thinking", "image", "document"]);

/**
 * The message `v` as hey can send it, or undefined when it is not one: a missing or mistyped
 * field of its own, its calls or a known part. A part of a kind this hey does not know is left
 * out (a message left with nothing says so in a text part); a vendor's opaque state that is not
 * shaped as hey writes it is dropped with the part or call keeping the rest.
 */
export function messageEntry(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const { id, role, content, toolCalls, toolCallId, toolName, isError } = v;
  if (!isStr(id) || !isStr(role) || !ROLES.has(role) || !Array.isArray(content)) return undefined;
  if (role === "tool" && !isStr(toolCallId)) return undefined;
  const parts: ContentBlock[] = [];
  const unknown: string[] = [];
  for (const p of content as unknown[]) {
    if (!isObject(p) || !isStr(p.type)) return undefined;
    if (!KINDS.has(p.type)) {
      unknown.push(p.type);
      continue;
    }
    const part = contentPart(p);
    if (!part) return undefined;
    parts.push(inOrderOf(p, part));
  }
  let calls: ToolCall[] | undefined;
  if (toolCalls !== undefined) {
    if (!Array.isArray(toolCalls)) return undefined;
    calls = [];
    for (const c of toolCalls as unknown[]) {
      if (!isObject(c) || !isStr(c.id) || !isStr(c.name) || !isStr(c.arguments)) return undefined;
      calls.push(inOrderOf(c, { id: c.id, name: c.name, arguments: c.arguments, ...opaqueOf(c.opaque) }));
    }
  }
  if (parts.length === 0 && unknown.length > 0 && !calls?.length)
    parts.push({ type: "text", text: `[${unknown.join(", ")} content from a newer hey, which this one cannot send]` });
  return inOrderOf(v, {
    id,
    role: role as Message["role"],
    content: parts,
    ...(calls ? { toolCalls: calls } : {}),
    ...(role === "tool" ? { toolCallId: toolCallId as string, toolName: isStr(toolName) ? toolName : "tool", isError: isError === true } : {}),
  });
}

/**
 * `built` with its keys in the order `line` had them (then any it added): a message read back is
 * the same JSON as the one written, which the prompt cache's prefix check compares (context/cache.ts).
 */
function inOrderOf<T extends object>(line: Record<string, unknown>, built: T): T {
  const fields = built as Record<string, unknown>;
  const keys = [...Object.keys(line).filter((k) => k in fields), ...Object.keys(fields).filter((k) => !(k in line))];
  return Object.fromEntries(keys.map((k) => [k, fields[k]])) as T;
}

/** A part of a kind hey writes, with the fields of its kind, else undefined. */
function contentPart(p: Record<string, unknown>): ContentBlock | undefined {
  if (p.type === "text") return isStr(p.text) ? { type: "text", text: p.text } : undefined;
  if (p.type === "thinking") return isStr(p.text) ? { type: "thinking", text: p.text, ...opaqueOf(p.opaque) } : undefined;
  if (p.type === "document")
    return p.mediaType === "application/pdf" && isStr(p.data) && isStr(p.name)
      ? { type: "document", mediaType: p.mediaType, data: p.data, name: p.name, ...(typeof p.pages === "number" ? { pages: p.pages } : {}) }
      : undefined;
  return isStr(p.mediaType) && isStr(p.data) ? { type: "image", mediaType: p.mediaType, data: p.data } : undefined;
}

/** `{opaque}` when `v` is shaped as a vendor's opaque state (kernel/ir.ts Opaque), else nothing. */
function opaqueOf(v: unknown): { opaque?: NonNullable<ToolCall["opaque"]> } {
  if (!isObject(v) || !isStr(v.protocol) || !isStr(v.model)) return {};
  return {
    opaque: inOrderOf(v, {
      protocol: v.protocol as NonNullable<ToolCall["opaque"]>["protocol"],
      model: v.model,
      ...(isStr(v.provider) ? { provider: v.provider } : {}),
      ...("data" in v ? { data: v.data } : {}),
    }),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isStr(v: unknown): v is string {
  return typeof v === "string";
}
