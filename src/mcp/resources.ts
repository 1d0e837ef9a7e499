// `@SERVER:URI` in a message attaches a server's resource (issue 27), as `@file` attaches a file:
// text fenced under its name and cut at `[input] max_bytes`, images as image parts. Pure: the
// server is asked by the caller.
import type { ImagePart } from "../kernel/ir.ts";
import { SMALLEST_IMAGE_BYTES } from "../fs/image-bytes.ts";
import { type Cut, decodeForPrompt } from "../fs/prompt-text.ts";
import { fence, findMentions } from "../prompt/mentions.ts";
import type { ResourceResult } from "./prompts.ts";

/** A resource a message names. `token` is the mention without its `@`. */
export interface ResourceMention {
  token: string;
  server: string;
  uri: string;
}

/** The `@SERVER:URI` mentions of `message` whose SERVER is one of `servers` (any other `@word` is left to `@file`). */
export function resourceMentions(message: string, servers: readonly string[]): ResourceMention[] {
  return findMentions(message).flatMap(({ path }) => {
    const colon = path.indexOf(":");
    if (colon <= 0 || colon === path.length - 1) return [];
    const server = path.slice(0, colon);
    return servers.includes(server) ? [{ token: path, server, uri: path.slice(colon + 1) }] : [];
  });
}

/** A resource as it goes into the prompt: its text (fenced), its images, what was cut. */
export interface Attached {
  text: string;
  images: ImagePart[];
  cut?: Cut;
}

type Content = { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };

/**
 * The contents of `resources/read` for the mention `token`: text parts fenced under the token
 * (all of them together cut at `maxBytes`), images attached, other binary refused. Throws an Error
 * whose message names the mention when nothing usable came back.
 */
export function attachResource(token: string, result: ResourceResult, maxBytes: number): Attached {
  const contents = (Array.isArray(result.contents) ? result.contents : []) as Content[];
  const texts: string[] = [];
  const images: ImagePart[] = [];
  for (const c of contents) {
    if (typeof c !== "object" || c === null) continue;
    const mime = typeof c.mimeType === "string" ? c.mimeType : "";
    if (typeof c.text === "string") texts.push(c.text);
    else if (typeof c.blob === "string" && mime.startsWith("image/")) {
      const bytes = Math.floor((c.blob.length * 3) / 4);
      if (bytes > SMALLEST_IMAGE_BYTES)
        throw new Error(`@${token}: image of ${(bytes / 1048576).toFixed(1)} MB is over the ${SMALLEST_IMAGE_BYTES / 1048576} MB limit`);
      images.push({ type: "image", mediaType: mime, data: c.blob });
    } else if (typeof c.blob === "string") {
      const decoded = decodeForPrompt(Buffer.from(c.blob, "base64"), Number.MAX_SAFE_INTEGER);
      if ("binary" in decoded) throw new Error(`@${token}: binary resource${mime ? ` (${mime})` : ""}, cannot be included as text`);
      texts.push(decoded.text);
    }
  }
  if (texts.length === 0 && images.length === 0) throw new Error(`@${token}: the server returned ${contents.length ? "no text or image" : "nothing"} for it`);
  if (texts.length === 0) return { text: "", images };
  const whole = new TextEncoder().encode(texts.join("\n\n"));
  const decoded = decodeForPrompt(whole, maxBytes, whole.length);
  if ("binary" in decoded) throw new Error(`@${token}: the resource holds binary data (a NUL byte near its start), cannot be included as text`);
  const note = decoded.cut ? `\n(truncated: showing the first ${decoded.cut.shown} of ${decoded.cut.of} bytes of the resource)` : "";
  return { text: fence(token, decoded.text) + note, images, ...(decoded.cut ? { cut: decoded.cut } : {}) };
}
