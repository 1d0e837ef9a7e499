// Images on chat completions: a user message's as `image_url` parts; a tool result's, which a tool
// message cannot carry (text only), in a user message after the turn's last tool message — the
// model sees what read_file showed it. A server that takes no user turn there (Mistral) gets a
// line instead, learned as openai-adapt.ts learns the other refusals. Pure.
import type { ContentBlock, ImagePart } from "../kernel/ir.ts";
import { dataUrl, joinText, toolText } from "./common.ts";

/** The parts of a chat-completions message, as the API takes them. */
export type ChatPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

/** A user message's content: text alone as a string; with images, parts; a text-only model's images as lines. */
export function userContent(content: ContentBlock[], noImages: boolean): string | ChatPart[] {
  if (noImages) return toolText(content, "omitted: this model takes no images");
  if (!content.some((p) => p.type === "image")) return joinText(content);
  return content.flatMap((p): ChatPart[] => {
    if (p.type === "text") return [{ type: "text", text: p.text }];
    if (p.type === "image") return [{ type: "image_url", image_url: { url: dataUrl(p) } }];
    return [];
  });
}

/** What a tool message says in place of its image: where it is, or that the model cannot see it and why. */
export const toolImageLine = (shown: boolean, noImages: boolean | undefined) =>
  shown
    ? "sent in the next message"
    : `omitted: ${noImages ? "this model takes no images" : "this endpoint takes no images after tool results"}; the model cannot see it`;

/** The user message after a turn's tool messages that carries their images, in order. */
export const toolImagesMessage = (images: ImagePart[]) => ({
  role: "user" as const,
  content: userContent([{ type: "text", text: "The images of the tool results above:" }, ...images], false),
});
