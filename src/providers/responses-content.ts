// A message's content as Responses input parts: text, images as `input_image` and PDFs as
// `input_file` (a `data:application/pdf;base64,` URL and its file name) — in a user message and in a
// function_call_output, whose output list takes the same three kinds. Pure.
import type { ContentBlock } from "../kernel/ir.ts";
import { dataUrl, joinText } from "./common.ts";
import { baseName } from "./documents.ts";
import type { OpenAI } from "./openai.ts";

type Part = OpenAI.Responses.ResponseInputContent & OpenAI.Responses.ResponseFunctionCallOutputItem;

function inputPart(p: ContentBlock): Part[] {
  if (p.type === "text") return [{ type: "input_text", text: p.text }];
  if (p.type === "image") return [{ type: "input_image", image_url: dataUrl(p), detail: "auto" }];
  if (p.type === "document") return [{ type: "input_file", file_data: dataUrl(p), filename: baseName(p.name) }];
  return [];
}

export function userContent(content: ContentBlock[]): OpenAI.Responses.ResponseInputMessageContentList {
  return content.flatMap(inputPart);
}

/** Plain text, or text, images and PDFs as a list when the result carries any (a screenshot tool, read_file of a PDF). */
export function toolOutput(content: ContentBlock[]): string | OpenAI.Responses.ResponseFunctionCallOutputItemList {
  if (!content.some((p) => p.type === "image" || p.type === "document")) return joinText(content);
  return content.flatMap(inputPart);
}
