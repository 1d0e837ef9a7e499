// What the bytes of an event stream show beside its events: which protocol its events are of (an
// adapter's SDK ignores or drops another protocol's events, so the adapter alone would see a stream
// that ended early or with nothing), and whether the body ended inside an event (a proxy or gateway
// that cut the connection and closed it cleanly). Fed by stream-guard.ts with every chunk of a body
// the SDKs read. Pure.
import type { Protocol } from "../kernel/ir.ts";
import { ProviderError } from "../kernel/provider.ts";

/** The protocol an event (one `data:` payload, parsed) is of, by its shape; undefined when it says none (an error, a keep-alive). */
export function protocolOfEvent(event: unknown): Protocol | undefined {
  if (typeof event !== "object" || event === null || Array.isArray(event)) return undefined;
  const e = event as Record<string, unknown>;
  if (Array.isArray(e.choices) || e.object === "chat.completion.chunk") return "openai";
  if (typeof e.type === "string" && e.type.startsWith("response.")) return "responses";
  if (typeof e.type === "string" && ANTHROPIC_EVENTS.has(e.type)) return "anthropic";
  if (Array.isArray(e.candidates) || typeof e.usageMetadata === "object" || typeof e.promptFeedback === "object") return "google";
  return undefined;
}

/** Anthropic's Messages stream events (docs.anthropic.com streaming), `ping` and `error` aside: those say no protocol. */
const ANTHROPIC_EVENTS = new Set(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]);

/** How each protocol is named to the user. */
const PROTOCOL_NAMES: Record<Protocol, string> = {
  openai: "OpenAI chat-completions",
  responses: "OpenAI Responses",
  anthropic: "Anthropic Messages",
  google: "Gemini",
};

/** How many events are parsed to tell their protocol: an answer's first events say it. */
const EVENTS_READ = 8;
/** How much of a line is kept once those are read: enough to tell an event's first characters. */
const LINE_KEPT = 16;

/** What a stream's bytes showed so far: StreamShape.push each chunk's text, `end` when the body closed cleanly. */
export class StreamShape {
  /** the protocols of the events read */
  readonly protocols = new Set<Protocol>();
  /** the body closed (not reset, not aborted) */
  ended = false;
  private line = "";
  /** the last chunk ended with a CR, whose LF may start the next */
  private cr = false;
  /** the start of the first `data:` payload of the event not yet ended by a blank line ("" when none) */
  private open = "";
  private read = 0;

  push(text: string): void {
    const lines = (this.cr && text.startsWith("\n") ? text.slice(1) : text).split(/\r\n|\r|\n/);
    this.cr = text.endsWith("\r");
    lines[0] = this.line + lines[0];
    this.line = lines.pop() ?? "";
    if (this.read >= EVENTS_READ) this.line = this.line.slice(0, LINE_KEPT);
    for (const line of lines) this.take(line);
  }

  end(): void {
    this.ended = true;
  }

  /** The body closed while an event of JSON was still being sent: a connection cut at a clean close, not a server that speaks no JSON. */
  get cutInEvent(): boolean {
    const open = this.open || (this.line.startsWith("data:") ? this.line.slice(5).trimStart() : "");
    return this.ended && /^(?:\{|\[(?!DONE\]))/.test(open);
  }

  /** The protocol the events were of when none was `own`'s: the configured protocol is wrong for this server. */
  foreign(own: Protocol): Protocol | undefined {
    if (this.protocols.has(own)) return undefined;
    return [...this.protocols][0];
  }

  private take(line: string): void {
    if (line === "") {
      this.open = "";
      return;
    }
    if (!line.startsWith("data:")) return;
    const data = line.slice(5).trimStart();
    this.open ||= data.slice(0, LINE_KEPT) || " ";
    if (this.read >= EVENTS_READ || !data.startsWith("{")) return;
    this.read++;
    try {
      const seen = protocolOfEvent(JSON.parse(data));
      if (seen) this.protocols.add(seen);
    } catch {
      // not JSON: the SDK says so
    }
  }
}

/** The endpoint whose protocol is set, and where: named in the fix of a wrong one. */
export interface ProtocolPlace {
  protocol: Protocol;
  baseUrl: string;
  /** the table the protocol is set in, `[provider.NAME] in FILE`; undefined: --protocol's (or HEY_PROTOCOL's) endpoint */
  setting: string | undefined;
}

/**
 * A whole stream of another protocol's events: the server speaks `seen`, not `place.protocol`. Not
 * retried (a `protocol` error): every retry would be another generation billed and read the same way.
 */
export function foreignEventsError(seen: Protocol, place: ProtocolPlace): ProviderError {
  const fix = place.setting ? `set protocol = "${seen}" in ${place.setting}` : `use --protocol ${seen} (HEY_PROTOCOL=${seen})`;
  return new ProviderError(
    "protocol",
    `${place.baseUrl} answered with ${PROTOCOL_NAMES[seen]} events, not the ${PROTOCOL_NAMES[place.protocol]} events of protocol "${place.protocol}": ${fix}, or point base_url at the server's ${PROTOCOL_NAMES[place.protocol]} API`,
  );
}
