// A message's content as Anthropic's content blocks: text, images, and PDFs as `document` blocks
// with a base64 source — in a user message and inside a tool result, which takes them
// (ToolResultBlockParam.content: text, image, search result and document blocks). Pure.
import type { ContentBlock } from "../kernel/ir.ts";
import { joinText } from "./common.ts";

const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

type ImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** The blocks made here, in the shapes of the SDK's TextBlockParam, ImageBlockParam and DocumentBlockParam (anthropic.ts, which alone names the SDK, checks them). */
type Block =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: ImageType; data: string } }
  | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string }; title: string };

/**
 * Text, images and PDFs. Whitespace-only text is left out: the API answers 400 "text content blocks
 * must contain non-whitespace text", and adaptive thinking itself can produce a "\n\n" block
 * (adaptive-thinking-leading-text.sse; nick1udwig/kibitz#78).
 */
export function userBlock(p: ContentBlock): Block[] {
  if (p.type === "text") return p.text.trim() === "" ? [] : [{ type: "text", text: p.text }];
  // the title names the file, so the model can tell two PDFs apart and say which it quotes
  if (p.type === "document") return [{ type: "document", source: { type: "base64", media_type: p.mediaType, data: p.data }, title: p.name }];
  if (p.type !== "image") return [];
  if (!IMAGE_TYPES.has(p.mediaType)) return [{ type: "text", text: `[image ${p.mediaType} omitted: unsupported type]` }];
  return [{ type: "image", source: { type: "base64", media_type: p.mediaType as ImageType, data: p.data } }];
}

/** A plain string unless the result holds an image or a PDF; never blank (the API rejects blank text). */
export function toolContent(content: ContentBlock[]): string | Block[] {
  if (content.some((p) => p.type === "image" || p.type === "document")) return content.flatMap(userBlock);
  const text = joinText(content);
  return text.trim() === "" ? "(no output)" : text;
}
