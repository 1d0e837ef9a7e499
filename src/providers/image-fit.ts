// The images a request sends, fitted to what its API takes. An image the API would refuse (over its
// size per image or per side, a kind it does not take) or has refused (a 400 naming an image) goes
// as a line saying so — `[image image/png omitted: …]` — in this and every later request of the
// run; when the images together pass the API's request limit (or a 413 says so), the oldest go as
// such lines and the newest stay, down to half the limit so the next images extend the cached
// prompt (image-room.ts). The conversation goes on instead of failing every request. The
// session keeps the images: a run that resumes it learns the same again (from the rules, before
// sending; from a refusal, with one request). Pure.
import type { ImagePart, Message, Protocol } from "../kernel/ir.ts";
import { identityOf, ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../kernel/provider.ts";
import { imageSize, SCALE_HINT, SHRINK_HINT } from "../fs/image-bytes.ts";
import { IMAGE_REFUSED, IMAGES_REFUSED, imageRulesOf, REQUEST_TOO_LARGE, type ImageRules } from "./image-words.ts";
import { imagesGivingWay, lowCount, type GaveWayFor } from "./image-room.ts";

/** Room left in a request for what is not an image (tools, JSON around the text), besides the text counted. */
const REQUEST_MARGIN_BYTES = 512 * 1024;
/**
 * The images' room is counted in steps of this many bytes: the text grows a little every turn, and
 * a room a few bytes smaller (a longer system prompt) should not be a new crossing of the limit.
 */
const ROOM_STEP = 256 * 1024;
/** Base64 enough to reach a JPEG's frame header past its EXIF block (at most 64 KB). */
const HEADER_CHARS = 96 * 1024;

/** Why each image, by imageKey, is left out for good in this run. */
export type LeftOut = Map<string, string>;

/** An image's identity across requests (the same bytes are the same image). */
export const imageKey = (p: ImagePart) => `${p.mediaType}:${p.data.length}:${p.data.slice(0, 48)}:${p.data.slice(-48)}`;

/** The images of `messages`, oldest first. */
export const imagesOf = (messages: readonly Message[]): ImagePart[] => messages.flatMap((m) => m.content.filter((p): p is ImagePart => p.type === "image"));

/** `messages` with each image `reasonOf` names sent as a line saying why; `messages` itself when none is. */
export function withImagesOmitted(messages: readonly Message[], reasonOf: (p: ImagePart) => string | undefined): readonly Message[] {
  let changed = false;
  const out = messages.map((m) => {
    if (!m.content.some((p) => p.type === "image" && reasonOf(p))) return m;
    changed = true;
    const content = m.content.map((p) => {
      const reason = p.type === "image" ? reasonOf(p) : undefined;
      return p.type === "image" && reason ? { type: "text" as const, text: `[image ${p.mediaType} omitted: ${reason}]` } : p;
    });
    return { ...m, content };
  });
  return changed ? out : messages;
}

const sizes = new WeakMap<ImagePart, { width: number; height: number } | undefined>();

/** The size `p`'s header states, read once per image part (the history's parts are the same objects from request to request). */
function sizeOf(p: ImagePart): { width: number; height: number } | undefined {
  if (!sizes.has(p)) sizes.set(p, imageSize(Buffer.from(p.data.slice(0, HEADER_CHARS), "base64")));
  return sizes.get(p);
}

const longSide = (p: ImagePart) => Math.max(sizeOf(p)?.width ?? 0, sizeOf(p)?.height ?? 0);

/** Why `rules`' API would refuse the image `p` on its own, or undefined. */
export function ruleBreach(p: ImagePart, rules: ImageRules): string | undefined {
  const mb = (n: number) => `${(n / 1048576).toFixed(n % 1048576 === 0 ? 0 : 1)} MB`;
  if (!rules.types.includes(p.mediaType))
    return `${rules.who} takes no ${p.mediaType.slice(6).toUpperCase()}; convert it (sips -s format png FILE, or convert FILE OUT.png)`;
  if (p.data.length > rules.imageBytes) return `${mb(p.data.length)} as sent is over the ${mb(rules.imageBytes)} ${rules.who} takes per image; ${SHRINK_HINT}`;
  if (!rules.maxSide) return undefined;
  const size = sizeOf(p);
  if (size && longSide(p) > rules.maxSide) return `${size.width}×${size.height} px is over the ${rules.maxSide} px ${rules.who} takes per side; ${SCALE_HINT}`;
  return undefined;
}

/** Why the API of `protocol` would refuse an image on its own (ruleBreach), for a message to stop before it is sent. */
export const imageCheckFor = (protocol: Protocol) => {
  const rules = imageRulesOf(protocol);
  return (p: ImagePart) => ruleBreach(p, rules);
};

/**
 * What a refusal `said` (with HTTP `status`) asks of the images `sent`: those to leave out for good
 * and why, or a smaller budget for all images (a request too large); undefined when it is not about
 * one image (a model that takes none is openai-adapt.ts's). The image named by a size in the words is
 * the one over it; else the newest.
 */
export function refusalOf(said: string, status: number | undefined, sent: ImagePart[]): { keys: string[]; reason: string } | { budget: number } | undefined {
  if (sent.length === 0 || IMAGES_REFUSED.test(said)) return undefined;
  if (status === 413 || REQUEST_TOO_LARGE.test(said)) return { budget: Math.floor(sent.reduce((n, p) => n + p.data.length, 0) / 2) };
  if (!IMAGE_REFUSED.test(said)) return undefined;
  const words = said
    .replace(/^request rejected \(\d+\): /, "")
    .replace(/^[\w.[\]]+: /, "")
    .split(/: \d|; /)[0]!
    .slice(0, 120);
  const megabytes = /exceeds? (\d+(?:\.\d+)?) ?MB/i.exec(said)?.[1];
  const pixels = /(\d+) pixels/i.exec(said)?.[1];
  const over = sent.filter((p) => {
    if (megabytes) return p.data.length > Number(megabytes) * 1048576;
    return pixels !== undefined && longSide(p) > Number(pixels);
  });
  return { keys: (over.length > 0 ? over : sent.slice(-1)).map(imageKey), reason: `the API refused it: ${words}` };
}

/**
 * `provider`, its requests' images fitted to what its API takes (see the head of this file). Each
 * image left out is told once as a `notice`; a request refused for an image is sent again at once
 * without it. Throws what `provider` throws otherwise.
 */
export function fittingImages(provider: Provider): Provider {
  const rules = imageRulesOf(provider.protocol);
  const left: LeftOut = new Map();
  const told = new Set<string>();
  let budget = rules.requestBytes;
  return {
    ...identityOf(provider),
    async *stream(request, signal) {
      for (;;) {
        const sent = fitted(request, rules, left, budget);
        const untold = [...sent.omitted].filter(([key]) => !told.has(key) && told.add(key));
        for (const reason of new Set(untold.map(([, reason]) => reason))) yield notice(untold.filter(([, r]) => r === reason).length, reason);
        let started = false;
        try {
          for await (const event of provider.stream(sent.request, signal)) {
            started = true;
            yield event;
          }
          return;
        } catch (e) {
          if (started || !(e instanceof ProviderError) || e.kind !== "bad_request") throw e;
          const refusal = refusalOf(e.message, e.status, imagesOf(sent.request.messages));
          if (!refusal) throw e;
          if ("budget" in refusal) budget = refusal.budget;
          else for (const key of refusal.keys) left.set(key, refusal.reason);
        }
      }
    },
  };
}

const notice = (count: number, reason: string): StreamEvent => ({
  type: "notice",
  message: `${count === 1 ? "an image is" : `${count} images are`} sent as a line saying so, not as an image: ${reason}`,
});

/** `request` with the images left out that `left`, `rules` and `budget` leave out, and why each is. */
function fitted(request: ModelRequest, rules: ImageRules, left: LeftOut, budget: number): { request: ModelRequest; omitted: Map<string, string> } {
  const omitted = new Map<string, string>();
  const images = imagesOf(request.messages);
  if (images.length === 0) return { request, omitted };
  for (const p of images) {
    const key = imageKey(p);
    const reason = left.get(key) ?? ruleBreach(p, rules);
    if (reason) omitted.set(key, reason);
  }
  // each image's room as of the request that added it: the text up to the end of its message (image-room.ts)
  const textOf = (m: Message) => m.content.reduce((k, p) => k + (p.type === "image" ? 0 : p.type === "document" ? p.data.length : p.text.length), 0);
  const roomAfter = (textBytes: number) => {
    const free = rules.requestBytes - textBytes - REQUEST_MARGIN_BYTES;
    return Math.max(0, Math.min(budget, free > ROOM_STEP ? free - (free % ROOM_STEP) : free));
  };
  const roomOf = new Map<ImagePart, number>();
  let text = request.system.length;
  for (const m of request.messages) {
    text += textOf(m);
    for (const p of m.content) if (p.type === "image") roomOf.set(p, roomAfter(text));
  }
  const room = roomAfter(text);
  const mb = Math.round(rules.requestBytes / 1048576);
  const { many } = rules;
  // the same words in every request: the lines left in place of the images are part of the cached prompt
  const next = "so the next images extend the cached prompt";
  const why: Record<GaveWayFor, string> = {
    // a budget a 413 taught is the server's (a proxy's, maybe), not the documented limit
    room:
      budget < rules.requestBytes
        ? `left out: the server refused the request as too large (HTTP 413); the oldest go first, down to half of what fits, ${next}`
        : `left out to keep the request under the ${mb} MB ${rules.who} takes; the oldest go first, down to half of it, ${next}`,
    count: many
      ? `left out to keep the request to ${many.count} images, above which ${rules.who} takes none over ${many.side} px; the oldest go first, down to ${lowCount(many.count)}, ${next}`
      : "",
  };
  // each copy on its own (the same screenshot @-mentioned, then read: the older copy goes, not both)
  const kept = images.filter((p) => !omitted.has(imageKey(p)));
  const dropped = new Map<ImagePart, string>();
  const giving = imagesGivingWay(
    kept.map((p) => ({ bytes: p.data.length, side: longSide(p), room: roomOf.get(p) })),
    { room, many },
  );
  for (const [i, limit] of giving) dropped.set(kept[i]!, why[limit]);
  if (omitted.size === 0 && dropped.size === 0) return { request, omitted };
  for (const [i, p] of images.entries()) {
    const reason = dropped.get(p);
    if (reason) omitted.set(`${imageKey(p)}#${i}`, reason); // told once each, by its place
  }
  return { request: { ...request, messages: withImagesOmitted(request.messages, (p) => omitted.get(imageKey(p)) ?? dropped.get(p)) }, omitted };
}
