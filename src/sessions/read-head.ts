// The head of a session file as resume reads it (reader.ts): the header, the first user message and the model before it.
import type { Message } from "../kernel/ir.ts";
import { modelOf, parseHeader, type SessionHeader } from "./format.ts";
import { linesForward } from "./lines.ts";
import { HEAD_MAX_LINES } from "./damaged-head.ts";
import { entryOf } from "./torn.ts";

type HeadModel = ReturnType<typeof modelOf>;

/** The header, the first user message (the first message, when it is a user's) and the model before it. */
export function readHead(
  fd: number,
  size: number,
  damaged?: SessionHeader,
): { header?: SessionHeader; firstUser?: Message; firstModel?: HeadModel; firstCut?: boolean } {
  const lines = linesForward(fd, size);
  const first = lines.next();
  const header = first.done ? undefined : (parseHeader(first.value.text) ?? damaged);
  let firstModel: HeadModel | undefined;
  for (let n = 0; header && n < HEAD_MAX_LINES; n++) {
    const line = lines.next();
    if (line.done) break;
    const parsed = entryOf(line.value.text, line.value.terminated, line.value.oversized, new Set());
    if (parsed.ok && parsed.entry.type === "model") firstModel = modelOf(parsed.entry);
    if (!parsed.ok || parsed.entry.type !== "message") continue;
    return {
      header,
      firstModel,
      firstCut: Boolean(line.value.oversized),
      ...(parsed.entry.message.role === "user" ? { firstUser: parsed.entry.message } : {}),
    };
  }
  return { header, firstModel };
}
