// Hand-made streaming replies in each protocol's wire format, shaped like the real recordings in
// test/fixtures/wire/: a turn that calls tools, and a turn that answers with text.
import type { Protocol } from "../../src/kernel/ir.ts";
import { sseReply, type Reply } from "./replay-server.ts";
import { chatChunk, sse } from "./sse.ts";

export interface Call {
  id: string;
  name: string;
  args: unknown;
}

const event = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

export function toolCallsReply(protocol: Protocol, calls: Call[]): Reply {
  switch (protocol) {
    case "openai":
      return sseReply(
        sse([
          ...calls.flatMap((c, index) => {
            const json = JSON.stringify(c.args);
            return [
              chatChunk({ toolCall: { index, id: c.id, name: c.name, arguments: "" } }),
              chatChunk({ toolCall: { index, arguments: json.slice(0, 5) } }),
              chatChunk({ toolCall: { index, arguments: json.slice(5) } }),
            ];
          }),
          chatChunk({ finish: "tool_calls" }),
          chatChunk({ usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 } }),
        ]),
      );
    case "responses": {
      const items = calls.map((c, i) => ({
        id: `fc_${i}${c.id}`,
        type: "function_call",
        status: "completed",
        arguments: JSON.stringify(c.args),
        call_id: c.id,
        name: c.name,
      }));
      let seq = 0;
      const body = [
        event("response.created", { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] }, sequence_number: seq++ }),
        ...items.flatMap((item, output_index) => [
          event("response.output_item.added", {
            type: "response.output_item.added",
            item: { ...item, arguments: "", status: "in_progress" },
            output_index,
            sequence_number: seq++,
          }),
          event("response.function_call_arguments.delta", {
            type: "response.function_call_arguments.delta",
            delta: item.arguments,
            item_id: item.id,
            output_index,
            sequence_number: seq++,
          }),
          event("response.output_item.done", { type: "response.output_item.done", item, output_index, sequence_number: seq++ }),
        ]),
        event("response.completed", {
          type: "response.completed",
          response: {
            id: "resp_1",
            status: "completed",
            output: items,
            usage: {
              input_tokens: 50,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: 20,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: 70,
            },
          },
          sequence_number: seq++,
        }),
      ];
      return sseReply(body.join(""));
    }
    case "anthropic": {
      const body = [
        event("message_start", {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "claude",
            content: [],
            stop_reason: null,
            usage: { input_tokens: 50, output_tokens: 1 },
          },
        }),
        ...calls.flatMap((c, index) => [
          event("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } }),
          event("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } }),
          event("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(c.args) } }),
          event("content_block_stop", { type: "content_block_stop", index }),
        ]),
        event("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } }),
        event("message_stop", { type: "message_stop" }),
      ];
      return sseReply(body.join(""));
    }
    case "google": {
      const parts = calls.map((c) => ({ functionCall: { name: c.name, args: c.args } }));
      const chunk = {
        candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 20, totalTokenCount: 70 },
      };
      return sseReply(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    }
  }
}

/**
 * Tool calls as Ollama streams them (ollama/ollama#15457; LiteLLM's ollama_chat too): each call
 * whole in a chunk of its own, every one at `index: 0`, told apart only by its id.
 */
export function callsAtIndexZero(calls: Call[]): Reply {
  return sseReply(
    sse([
      ...calls.map((c) => chatChunk({ toolCall: { index: 0, id: c.id, name: c.name, arguments: JSON.stringify(c.args) } })),
      chatChunk({ finish: "tool_calls" }),
      chatChunk({ usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 } }),
    ]),
  );
}

export function textReply(protocol: Protocol, text: string): Reply {
  switch (protocol) {
    case "openai":
      return sseReply(
        sse([chatChunk({ content: text }), chatChunk({ finish: "stop" }), chatChunk({ usage: { prompt_tokens: 90, completion_tokens: 5, total_tokens: 95 } })]),
      );
    case "responses": {
      const item = { id: "msg_1", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] };
      return sseReply(
        [
          event("response.created", { type: "response.created", response: { id: "resp_2", status: "in_progress", output: [] }, sequence_number: 0 }),
          event("response.output_item.added", {
            type: "response.output_item.added",
            item: { ...item, content: [], status: "in_progress" },
            output_index: 0,
            sequence_number: 1,
          }),
          event("response.output_text.delta", {
            type: "response.output_text.delta",
            delta: text,
            item_id: "msg_1",
            output_index: 0,
            content_index: 0,
            sequence_number: 2,
          }),
          event("response.output_item.done", { type: "response.output_item.done", item, output_index: 0, sequence_number: 3 }),
          event("response.completed", {
            type: "response.completed",
            response: { id: "resp_2", status: "completed", output: [item], usage: { input_tokens: 90, output_tokens: 5, total_tokens: 95 } },
            sequence_number: 4,
          }),
        ].join(""),
      );
    }
    case "anthropic":
      return sseReply(
        [
          event("message_start", {
            type: "message_start",
            message: {
              id: "msg_2",
              type: "message",
              role: "assistant",
              model: "claude",
              content: [],
              stop_reason: null,
              usage: { input_tokens: 90, output_tokens: 1 },
            },
          }),
          event("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
          event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }),
          event("content_block_stop", { type: "content_block_stop", index: 0 }),
          event("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } }),
          event("message_stop", { type: "message_stop" }),
        ].join(""),
      );
    case "google": {
      const chunk = {
        candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 90, candidatesTokenCount: 5, totalTokenCount: 95 },
      };
      return sseReply(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    }
  }
}

/** The base URL a user would write for each protocol against `server` (vendor style, version included). */
export function baseUrlFor(protocol: Protocol, server: string): string {
  return protocol === "google" ? `${server}/v1beta` : `${server}/v1`;
}

/**
 * An Anthropic answer refused mid-way, as platform.claude.com's handle-streaming-refusals shows it:
 * `text` streamed, then `stop_details` (category, explanation) beside stop_reason "refusal".
 */
export function anthropicRefusal(text: string, category: string, explanation: string): Reply {
  const at = (type: string, data: Record<string, unknown>) => event(type, { type, ...data });
  return sseReply(
    [
      at("message_start", {
        message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } },
      }),
      at("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      at("content_block_delta", { index: 0, delta: { type: "text_delta", text } }),
      at("content_block_stop", { index: 0 }),
      at("message_delta", { delta: { stop_reason: "refusal", stop_details: { type: "refusal", category, explanation } }, usage: { output_tokens: 3 } }),
      at("message_stop", {}),
    ].join(""),
  );
}

/** A finished answer of `thinking` alone, no text and no call, as each protocol streams it (stop, end_turn, STOP, completed). */
export function thinkingReply(protocol: Protocol, thinking: string): Reply {
  switch (protocol) {
    case "openai":
      return sseReply(
        sse([
          chatChunk({ reasoning: thinking }),
          chatChunk({ finish: "stop" }),
          chatChunk({ usage: { prompt_tokens: 90, completion_tokens: 5, total_tokens: 95 } }),
        ]),
      );
    case "responses": {
      const item = { id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: thinking }] };
      const at = (type: string, n: number, fields: Record<string, unknown>) => event(type, { type, ...fields, sequence_number: n });
      return sseReply(
        [
          at("response.created", 0, { response: { id: "resp_3", status: "in_progress", output: [] } }),
          at("response.output_item.added", 1, { item: { ...item, summary: [] }, output_index: 0 }),
          at("response.reasoning_summary_text.delta", 2, { item_id: "rs_1", output_index: 0, summary_index: 0, delta: thinking }),
          at("response.output_item.done", 3, { item, output_index: 0 }),
          at("response.completed", 4, {
            response: { id: "resp_3", status: "completed", output: [item], usage: { input_tokens: 90, output_tokens: 5, total_tokens: 95 } },
          }),
        ].join(""),
      );
    }
    case "anthropic": {
      const message = {
        id: "msg_3",
        type: "message",
        role: "assistant",
        model: "claude",
        content: [],
        stop_reason: null,
        usage: { input_tokens: 90, output_tokens: 1 },
      };
      return sseReply(
        [
          event("message_start", { type: "message_start", message }),
          event("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }),
          event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking } }),
          event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } }),
          event("content_block_stop", { type: "content_block_stop", index: 0 }),
          event("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } }),
          event("message_stop", { type: "message_stop" }),
        ].join(""),
      );
    }
    case "google": {
      const chunk = {
        candidates: [{ content: { role: "model", parts: [{ text: thinking, thought: true }] }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 90, candidatesTokenCount: 5, totalTokenCount: 95 },
      };
      return sseReply(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    }
  }
}
