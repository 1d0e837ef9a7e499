// Images and PDFs on chat completions: a user message's as `image_url` and `file` parts; a tool
// result's, which a tool message cannot carry (text only), in a user message after the turn's last
// tool message — the model sees what read_file showed it. A server that takes no user turn there
// (Mistral) gets a line instead, learned as openai-adapt.ts learns the other refusals; an endpoint
// that takes no PDFs gets a line for each (documents.ts). Pure.
import type { ContentBlock, DocumentPart, ImagePart } from "../kernel/ir.ts";
import { dataUrl, joinText, toolText } from "./common.ts";
import { baseName, documentsAsLines, NO_PDFS } from "./documents.ts";

/** The parts of a chat-completions message, as the API takes them. */
export type ChatPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } }
  | { type: "file"; file: { filename: string; file_data: string } };

/** Why this endpoint's PDFs go as lines, or undefined when they go as `file` parts. */
export const pdfsWithheld = (opts: { pdfs?: boolean; noImages?: boolean }): string | undefined =>
  opts.noImages ? "this model takes no images or PDFs" : opts.pdfs ? undefined : NO_PDFS;

/** A user message's content: text alone as a string; with images or PDFs, parts; a text-only model's images as lines, and PDFs as `pdfsWhy` says. */
export function userContent(content: ContentBlock[], noImages: boolean, pdfsWhy?: string): string | ChatPart[] {
  const parts = pdfsWhy ? documentsAsLines(content, pdfsWhy) : content;
  if (noImages) return toolText(parts, "omitted: this model takes no images");
  if (!parts.some((p) => p.type === "image" || p.type === "document")) return joinText(parts);
  return parts.flatMap((p): ChatPart[] => {
    if (p.type === "text") return [{ type: "text", text: p.text }];
    if (p.type === "image") return [{ type: "image_url", image_url: { url: dataUrl(p) } }];
    if (p.type === "document") return [{ type: "file", file: { filename: baseName(p.name), file_data: dataUrl(p) } }];
    return [];
  });
}

/** What a tool message says in place of its image: where it is, or that the model cannot see it and why. */
export const toolImageLine = (shown: boolean, noImages: boolean | undefined) =>
  shown
    ? "sent in the next message"
    : `omitted: ${noImages ? "this model takes no images" : "this endpoint takes no images after tool results"}; the model cannot see it`;

/** The user message after a turn's tool messages that carries their images and PDFs, in order. */
export const toolImagesMessage = (shown: (ImagePart | DocumentPart)[]) => ({
  role: "user" as const,
  content: userContent(
    [{ type: "text", text: `The ${shown.some((p) => p.type === "document") ? "files" : "images"} of the tool results above:` }, ...shown],
    false,
  ),
});
