// A loopback OpenAI-compatible chat server whose "model" is a function of the request, for tests
// where the answer must depend on what hey sent (the system prompt, a tool result) rather than
// on a queue of canned replies. Records every request body.
import { chatChunk, sse } from "./sse.ts";

export interface ChatMessage {
  role: string;
  content: string | null | { type: string; text?: string }[];
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: { function: { name: string } }[];
  max_tokens?: number;
}

/** What the model does next: answer, call tools, or fail the request (an HTTP error with this status, JSON body and headers). */
export type Turn =
  | { text: string }
  | { calls: [name: string, args: unknown][] }
  | { error: { status: number; body: unknown; headers?: Record<string, string> } };

export interface ModelServer {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  requests: ChatRequest[];
  /** request bodies in bytes, in order */
  sizes: number[];
  /** when each request arrived (performance.now() of the test process), in order */
  times: number[];
  /** the path of each GET (the model list), in order */
  gets: string[];
  /** the headers of each POST, in order (lower-case names) */
  headers: Record<string, string>[];
  stop(): void;
}

let callNo = 0;

/**
 * `promptTokens`: the input tokens each response reports, from the request body's text (a real
 * tokenizer's count grows with what was sent); default a constant 10. `usage: false`: no usage at
 * all, as a server asked without `stream_options` streams it.
 */
export function startModelServer(decide: (req: ChatRequest) => Turn, opts: { promptTokens?: (body: string) => number; usage?: false } = {}): ModelServer {
  const requests: ChatRequest[] = [];
  const sizes: number[] = [];
  const times: number[] = [];
  const gets: string[] = [];
  const headers: Record<string, string>[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (req.method === "GET") gets.push(new URL(req.url).pathname);
      if (req.method !== "POST") return new Response("404 page not found", { status: 404 }); // hey's GET of the model list, after the first answer: no list here
      times.push(performance.now());
      headers.push(Object.fromEntries(req.headers));
      const text = await req.text();
      sizes.push(new TextEncoder().encode(text).length);
      const body = JSON.parse(text) as ChatRequest;
      requests.push(body);
      let turn: Turn;
      try {
        turn = decide(body);
      } catch (e) {
        return Response.json({ error: { message: `test model: ${(e as Error).message}` } }, { status: 400 });
      }
      if ("error" in turn) return Response.json(turn.error.body, { status: turn.error.status, headers: turn.error.headers ?? {} });
      const prompt = opts.promptTokens?.(text) ?? 10;
      const usage = opts.usage === false ? [] : [chatChunk({ usage: { prompt_tokens: prompt, completion_tokens: 5, total_tokens: prompt + 5 } })];
      const chunks =
        "text" in turn
          ? [chatChunk({ content: turn.text }), chatChunk({ finish: "stop" }), ...usage]
          : [
              ...turn.calls.map(([name, args], index) => chatChunk({ toolCall: { index, id: `call_${++callNo}`, name, arguments: JSON.stringify(args) } })),
              chatChunk({ finish: "tool_calls" }),
              ...usage,
            ];
      return new Response(sse(chunks), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { baseUrl: `http://127.0.0.1:${server.port}/v1`, requests, sizes, times, gets, headers, stop: () => server.stop(true) };
}

/** The text of a message's content. */
export function textOf(m: ChatMessage | undefined): string {
  if (!m || m.content === null) return "";
  return typeof m.content === "string" ? m.content : m.content.map((p) => p.text ?? "").join("");
}

/** A tool result's text as the tool wrote it: without the `[#handle]` line hey ends results with for the compress tool. */
export const resultText = (m: ChatMessage | undefined): string =>
  textOf(m)
    .replace(/\n\[#[0-9a-z]+\]$/, "")
    .replace(/^\[#[0-9a-z]+\]$/, "");

/** A message's text without the context note hey puts at the end of a request's last message once the context fills up. */
export const withoutNote = (text: string): string => text.replace(/\n\nContext: [^\n]*$/, "");

/** The system prompt of a request ("" when there is none). */
export const systemOf = (req: ChatRequest): string => (req.messages[0]?.role === "system" ? textOf(req.messages[0]) : "");

/** What the last request after a /reload carries at its end: the note of what the reload did (issue 26), or undefined. */
export const reloadNoteOf = (req: ChatRequest): string | undefined =>
  /\[hey: the user ran \/reload[\s\S]*\](?=(?:\nContext: [^\n]*)?$)/.exec(textOf(req.messages.at(-1)))?.[0];

/** The note of the skills a /reload changed that the user's next message begins with, and stays in the conversation (prompt/skill-listing.ts skillsChangedNote), or undefined. */
export const skillsNoteOf = (m: ChatMessage | undefined): string | undefined => SKILLS_NOTE.exec(textOf(m))?.[1];
const SKILLS_NOTE = /^(\[hey: the user's \/reload changed the skills;[\s\S]*?\])(?:\n+|$)/;

/** The last user message's text, without the note of a /reload or of MCP tools that changed (mcp/guidance.ts) a request may end with, nor a /reload's skills note it begins with. */
export const lastUserText = (req: ChatRequest): string =>
  textOf(req.messages.findLast((m) => m.role === "user"))
    .replace(SKILLS_NOTE, "")
    .replace(
      /\n\n\[hey: (?:the user ran \/reload|the MCP tools offered changed|MCP server \S+ connected; its instructions)[\s\S]*\](?=(?:\nContext: [^\n]*)?$)/,
      "",
    );
