// read_file of an image on chat completions: a tool message is text only, so the image follows in a
// user message after the turn's tool messages and the model sees it; a server that refuses a user
// turn there (Mistral) gets a line saying the model cannot see it, learned once.
import { expect, test } from "bun:test";
import type { Message } from "../../src/kernel/ir.ts";
import { toRequest } from "../../src/providers/openai.ts";
import { adaptToRefusal, TOOL_IMAGES_NOTICE, type Adaptable } from "../../src/providers/openai-adapt.ts";

const IMAGE = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };
const messages: Message[] = [
  { id: "u", role: "user", content: [{ type: "text", text: "what is in shot.png?" }] },
  {
    id: "a",
    role: "assistant",
    content: [],
    toolCalls: [
      { id: "c1", name: "read_file", arguments: '{"path":"shot.png"}' },
      { id: "c2", name: "read_file", arguments: '{"path":"notes.md"}' },
    ],
  },
  { id: "t1", role: "tool", toolCallId: "c1", toolName: "read_file", content: [{ type: "text", text: "shot.png: image/png, 1 KB" }, IMAGE] },
  { id: "t2", role: "tool", toolCallId: "c2", toolName: "read_file", content: [{ type: "text", text: "# notes" }] },
];
const sent = (opts: Adaptable) => toRequest({ system: "", messages, tools: [] }, { model: "m", ...opts }).messages;

test("a tool result's image follows the turn's tool messages in a user message, so the model sees it (before: '[image image/png omitted]' with no reason)", () => {
  expect(sent({}).slice(2)).toEqual([
    { role: "tool", tool_call_id: "c1", content: "shot.png: image/png, 1 KB\n[image image/png sent in the next message]" },
    { role: "tool", tool_call_id: "c2", content: "# notes" },
    {
      role: "user",
      content: [
        { type: "text", text: "The images of the tool results above:" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ],
    },
  ]);
});

test("Mistral's 'Unexpected role 'user' after role 'tool'': the image goes as a line saying the model cannot see it, and the user is told once", () => {
  const options: Adaptable = {};
  expect(adaptToRefusal(options, "Unexpected role 'user' after role 'tool'")).toBe(TOOL_IMAGES_NOTICE);
  expect(adaptToRefusal(options, "Unexpected role 'user' after role 'tool'")).toBe(false);
  expect(sent(options).slice(2)).toEqual([
    {
      role: "tool",
      tool_call_id: "c1",
      content: "shot.png: image/png, 1 KB\n[image image/png omitted: this endpoint takes no images after tool results; the model cannot see it]",
    },
    { role: "tool", tool_call_id: "c2", content: "# notes" },
  ]);
});

test("a model that takes no images: the tool's image is a line saying so, and no user message follows", () => {
  expect(sent({ noImages: true }).slice(2)[0]).toEqual({
    role: "tool",
    tool_call_id: "c1",
    content: "shot.png: image/png, 1 KB\n[image image/png omitted: this model takes no images; the model cannot see it]",
  });
  expect(sent({ noImages: true }).length).toBe(4);
});
