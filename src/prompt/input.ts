// Reads the files a message mentions and builds the user prompt (SPEC §2). The rules live in
// pure/mentions.ts; this file only does the reading.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { ContentBlock, ImagePart } from "../kernel/ir.ts";
import { IMAGE_MAX_BYTES, sniffImage, toBase64 } from "./image.ts";
import { buildPrompt, decodeForPrompt, findMentions, type MentionedFile } from "./mentions.ts";

/** A mentioned file that cannot be used; the message names the path. */
export class MentionError extends Error {
  override name = "MentionError";
}

/**
 * The user message content for `message` (+ `stdin`): `@path` tokens expanded to fenced file
 * contents, images (`@shot.png`) attached as image parts after the text. `required` paths
 * (whole `@path` arguments) must exist; a path-like mention that does not exist is an error
 * too, a word like `@john` stays literal. `home` expands a leading `~/`.
 */
export function expandPrompt(message: string, opts: { cwd: string; home?: string; required?: string[]; stdin?: string }): ContentBlock[] {
  const required = new Set(opts.required ?? []);
  const files: MentionedFile[] = [];
  const images: ImagePart[] = [];
  for (const { path, looksLikePath } of findMentions(message)) {
    const full = absolute(path, opts.cwd, opts.home);
    const file = readMention(path, full);
    if (file && "mediaType" in file) images.push(file);
    else if (file) files.push(file);
    else if (required.has(path) || looksLikePath) throw new MentionError(`@${path}: no such file (${full})`);
  }
  return [{ type: "text", text: buildPrompt(message, files, opts.stdin) }, ...images];
}

function absolute(path: string, cwd: string, home: string | undefined): string {
  if (home && (path === "~" || path.startsWith("~/"))) return resolve(home, path.slice(2));
  return isAbsolute(path) ? path : resolve(cwd, path);
}

function readMention(path: string, full: string): MentionedFile | ImagePart | undefined {
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) throw new MentionError(`@${path}: is a directory; mention files, or ask hey to look inside it`);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(full);
  } catch (e) {
    throw new MentionError(`@${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const mediaType = sniffImage(bytes);
  if (mediaType) {
    if (bytes.length > IMAGE_MAX_BYTES) throw new MentionError(`@${path}: image of ${(bytes.length / 1048576).toFixed(1)} MB is over the ${IMAGE_MAX_BYTES / 1048576} MB limit`);
    return { type: "image", mediaType, data: toBase64(bytes) };
  }
  const decoded = decodeForPrompt(bytes);
  if ("binary" in decoded) throw new MentionError(`@${path}: binary file, cannot be included as text`);
  return { path, ...decoded };
}
