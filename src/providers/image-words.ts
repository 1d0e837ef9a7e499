// How the APIs and servers say they will not take an image, and what each API takes of images:
// the one place their words and limits are kept (image-fit.ts, openai-adapt.ts and common.ts read
// them). Pure.
import type { Protocol } from "../kernel/ir.ts";

/**
 * How a text-only model refuses every image: DeepSeek's "unknown variant `image_url`, expected
 * `text`", OpenAI's "Invalid content type. image_url is only supported by certain models." (vllm-project/vllm#11629),
 * Ollama's "this model does not support image input" (ollama/ollama#17301) and, for a model without
 * its vision weights, "this model is missing data required for image input" (a 400 or a 500), vLLM's
 * "At most 0 image(s) may be provided in one request.", "Model do not support image input"
 * (anomalyco/opencode#47994), OpenRouter's 404 "No endpoints found that support image input"
 * (nexu-io/nexu#733), and "image input is not supported".
 */
export const IMAGES_REFUSED =
  /unknown variant [`'"]?image_url|image_url is only supported by certain models|support image input|(?:does not|doesn't|do not|not) support (?:image|vision)|image input is not supported|images? (?:are|is) not supported|missing data required for image input|at most 0 image/i;

/**
 * How an API refuses one image of a request it would otherwise take: Anthropic's "image exceeds 5 MB
 * maximum" and "image dimensions exceed max allowed size: 8000 pixels", "Could not process image";
 * OpenAI's `invalid_image` / "You uploaded an unsupported image" / "Invalid image"; Gemini's
 * "Unable to process input image" and "Unsupported MIME type: image/gif".
 */
export const IMAGE_REFUSED =
  /image exceeds|image dimensions exceed|max allowed size: \d+ pixels|could not process image|unsupported image|invalid[_ ]image|image_parse_error|unable to process input image|image (?:is )?too (?:large|big)|unsupported mime type: image/i;

/** How an API refuses a request too large in bytes (a 413 says it by its status): Anthropic's `request_too_large`, Gemini's "Request payload size exceeds the limit". */
export const REQUEST_TOO_LARGE =
  /request_too_large|request entity too large|payload too large|payload size exceeds|exceeds the maximum allowed number of bytes/i;

/** What an API takes of images: per image (as base64), per side, per request, and which kinds. */
export interface ImageRules {
  /** the API's name, for messages */
  who: string;
  imageBytes: number;
  maxSide?: number;
  requestBytes: number;
  /** over `count` images in a request, none may be over `side` px a side */
  many?: { count: number; side: number };
  /** the media types it takes */
  types: readonly string[];
}

const MB = 1024 * 1024;
/** What Anthropic and OpenAI take: PNG, JPEG, GIF and WebP. */
const FOUR = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/**
 * Anthropic's documented limits (docs.anthropic.com "Vision": 5 MB per image, 8000×8000 px, or
 * 2000×2000 px in a request of over 20 images; a Messages request 32 MB), Gemini's inline data (20 MB for the whole request; PNG, JPEG, WebP,
 * HEIC, HEIF: no GIF), OpenAI's (20 MB per image, 50 MB per request).
 */
export function imageRulesOf(protocol: Protocol): ImageRules {
  if (protocol === "anthropic")
    return { who: "Anthropic", imageBytes: 5 * MB, maxSide: 8000, requestBytes: 32 * MB, many: { count: 20, side: 2000 }, types: FOUR };
  if (protocol === "google")
    return { who: "Gemini", imageBytes: 20 * MB, requestBytes: 20 * MB, types: ["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"] };
  return { who: "the API", imageBytes: 20 * MB, requestBytes: 50 * MB, types: FOUR };
}
