// Images fitted to what an API takes (providers/image-fit.ts): an image the API refused, or would,
// goes as a line saying so and the request again at once; the oldest images give way when the
// request is too large. The conversation goes on instead of failing every request.
import { expect, test } from "bun:test";
import type { ImagePart, Message, Protocol } from "../../src/kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { fittingImages, refusalOf, withImagesOmitted } from "../../src/providers/image-fit.ts";

/** A PNG header `width` px wide, padded to `bytes` bytes, as an image part. */
function image(width: number, bytes: number): ImagePart {
  const out = new Uint8Array(bytes);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(out.buffer).setUint32(16, width);
  new DataView(out.buffer).setUint32(20, 100);
  out[bytes - 1] = width % 251; // images of one size differ
  return { type: "image", mediaType: "image/png", data: Buffer.from(out).toString("base64") };
}
const MB = 1024 * 1024;
const user = (id: string, ...images: ImagePart[]): Message => ({ id, role: "user", content: [{ type: "text", text: `look ${id}` }, ...images] });
const request = (...messages: Message[]): ModelRequest => ({ system: "", messages, tools: [] });

/** A provider that answers by `answer` (throwing for a refusal), recording what each request sent. */
function scripted(protocol: Protocol, answer: (req: ModelRequest, n: number) => void) {
  const sent: ModelRequest[] = [];
  const provider: Provider = {
    protocol,
    model: "m",
    async *stream(req): AsyncGenerator<StreamEvent> {
      sent.push(req);
      answer(req, sent.length);
      yield {
        type: "done",
        message: { id: "a", role: "assistant", content: [{ type: "text", text: "ok" }] },
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        stop: "stop",
      };
    },
  };
  return { provider, sent };
}
const collect = async (p: Provider, req: ModelRequest) => {
  const events: StreamEvent[] = [];
  for await (const e of p.stream(req, new AbortController().signal)) events.push(e);
  return events;
};
const lines = (req: ModelRequest) => req.messages.flatMap((m) => m.content.map((p) => (p.type === "image" ? "IMAGE" : p.type === "text" ? p.text : "")));

const small = image(800, 1000);
const wide = image(9000, 1000);
test.each([
  [
    "Anthropic's 5 MB words: the image over 5 MB",
    "messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 6253660 bytes > 5242880 bytes",
    400,
    [image(10, 4 * MB), small],
    [1],
    "the API refused it: image exceeds 5 MB maximum",
  ],
  [
    "Anthropic's pixel words: the image over 8000 px",
    "messages.2.content.0.image.source.base64: image dimensions exceed max allowed size: 8000 pixels",
    400,
    [wide, small],
    [0],
    "the API refused it: image dimensions exceed max allowed size",
  ],
  ["words naming no image: the newest", "Could not process image", 400, [wide, small], [1], "the API refused it: Could not process image"],
  [
    "Gemini's words for a kind it does not take: the newest",
    "Unsupported MIME type: image/gif",
    400,
    [small],
    [0],
    "the API refused it: Unsupported MIME type: image/gif",
  ],
])("refusalOf: %s", (_name, said, status, sent, which, reason) => {
  const refusal = refusalOf(`request rejected (${status}): ${said}`, status, sent);
  expect(refusal).toMatchObject({ reason });
  expect(refusal && "keys" in refusal ? refusal.keys.length : 0).toBe(which.length);
});

test.each([
  ["a model that takes no images (openai-adapt.ts's)", "this model is missing data required for image input", 400],
  ["an error about something else", "max_tokens: must be at most 8192", 400],
])("refusalOf: %s is none of its own", (_name, said, status) => expect(refusalOf(said, status, [small])).toBeUndefined());

test("refusalOf: a 413 for a request with images halves what images may take; without images it is no image's", () => {
  expect(refusalOf("request rejected (413): Request exceeds the maximum allowed number of bytes.", 413, [image(1, 3000), image(2, 3000)])).toEqual({
    budget: 4000,
  });
  expect(refusalOf("request rejected (413): too large", 413, [])).toBeUndefined();
});

test("withImagesOmitted: the named image becomes a line, the rest of the history as it was", () => {
  const history = [user("1", small), user("2")];
  expect(withImagesOmitted(history, () => undefined)).toBe(history);
  const out = withImagesOmitted(history, (p) => (p === small ? "why" : undefined));
  expect(out[1]).toBe(history[1]!);
  expect(out[0]!.content).toEqual([
    { type: "text", text: "look 1" },
    { type: "text", text: "[image image/png omitted: why]" },
  ]);
  expect(history[0]!.content[1]).toBe(small); // the session's copy keeps the image
});

test("a 400 'image exceeds 5 MB maximum': sent again at once with a line in its place, told once, and left out of every later request", async () => {
  const { provider, sent } = scripted("anthropic", (req) => {
    if (lines(req).includes("IMAGE"))
      throw new ProviderError("bad_request", "request rejected (400): messages.0.content.1.image.source.base64: image exceeds 5 MB maximum", { status: 400 });
  });
  const fitted = fittingImages(provider);
  const events = await collect(fitted, request(user("1", small)));
  expect(sent.map(lines)).toEqual([
    ["look 1", "IMAGE"],
    ["look 1", "[image image/png omitted: the API refused it: image exceeds 5 MB maximum]"],
  ]);
  expect(events.filter((e) => e.type === "notice")).toEqual([
    { type: "notice", message: "an image is sent as a line saying so, not as an image: the API refused it: image exceeds 5 MB maximum" },
  ]);
  await collect(fitted, request(user("1", small), user("2")));
  expect(sent.length).toBe(3); // the next turn: no refusal again
  expect(lines(sent[2]!)).toEqual(["look 1", "[image image/png omitted: the API refused it: image exceeds 5 MB maximum]", "look 2"]);
});

test("a 413 for a request of many images: the oldest go as lines, the newest are sent, and text-only turns go on", async () => {
  const { provider, sent } = scripted("openai", (req) => {
    if (lines(req).filter((l) => l === "IMAGE").length > 2)
      throw new ProviderError("bad_request", "request rejected (413): Request Entity Too Large", { status: 413 });
  });
  const shots = [1, 2, 3, 4].map((n) => image(n, 3000));
  const events = await collect(fittingImages(provider), request(user("1", shots[0]!, shots[1]!), user("2", shots[2]!, shots[3]!)));
  expect(lines(sent.at(-1)!).filter((l) => l === "IMAGE").length).toBe(2);
  expect(lines(sent.at(-1)!).slice(-2)).toEqual(["IMAGE", "IMAGE"]); // the newest
  expect(events.some((e) => e.type === "done")).toBe(true);
  // the server's 413, not the API's documented limit, said as such
  expect(lines(sent.at(-1)!)[1]).toBe(
    "[image image/png omitted: left out: the server refused the request as too large (HTTP 413); the oldest go first, down to half of what fits, so the next images extend the cached prompt]",
  );
});

test("copies of one image over the request's room: the oldest copies go, the newest are sent (before: every copy went, with the one just attached)", async () => {
  const { provider, sent } = scripted("anthropic", () => {});
  const copies = Array.from({ length: 9 }, () => image(1, 3 * MB)); // the same bytes, 4 MB each as base64
  await collect(fittingImages(provider), request(user("1", ...copies.slice(0, 4)), user("2", ...copies.slice(4))));
  // the 8th passes the room: the oldest go down to half of it (3), and the 9th joins them
  expect(lines(sent[0]!).filter((l) => l === "IMAGE").length).toBe(4);
  expect(lines(sent[0]!).slice(-4)).toEqual(["IMAGE", "IMAGE", "IMAGE", "IMAGE"]);
});

test("images together over Anthropic's 32 MB request: the oldest are left out before sending, down to half of it, in one notice", async () => {
  const { provider, sent } = scripted("anthropic", () => {});
  const shots = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => image(n, 3 * MB)); // 4 MB each as base64
  const events = await collect(fittingImages(provider), request(user("1", ...shots.slice(0, 4)), user("2", ...shots.slice(4))));
  expect(sent.length).toBe(1);
  expect(lines(sent[0]!).filter((l) => l === "IMAGE").length).toBe(3);
  const why =
    "left out to keep the request under the 32 MB Anthropic takes; the oldest go first, down to half of it, so the next images extend the cached prompt";
  expect(lines(sent[0]!)[1]).toBe(`[image image/png omitted: ${why}]`);
  expect(events.filter((e) => e.type === "notice").map((e) => e.type === "notice" && e.message)).toEqual([
    `5 images are sent as a line saying so, not as an image: ${why}`,
  ]);
});

test.each([
  ["anthropic", wide, "9000×100 px is over the 8000 px Anthropic takes per side; scale it down (sips -Z 2000 FILE"],
  [
    "google",
    { type: "image", mediaType: "image/gif", data: "R0lGODlhAQABAAAAACw=" } as ImagePart,
    "Gemini takes no GIF; convert it (sips -s format png FILE, or convert FILE OUT.png)",
  ],
])("%s: an image its API does not take goes as a line before it is refused", async (protocol, shot, why) => {
  const { provider, sent } = scripted(protocol as Protocol, () => {});
  await collect(fittingImages(provider), request(user("1", shot)));
  expect(lines(sent[0]!)[1]).toStartWith(`[image ${shot.mediaType} omitted: ${why}`);
});

test("a HEIC image goes to Gemini as such, and to Anthropic as a line saying to convert it", async () => {
  const heic: ImagePart = { type: "image", mediaType: "image/heic", data: "AAAAGGZ0eXBoZWljAAAAAG1pZjFoZWlj" };
  const gemini = scripted("google", () => {});
  await collect(fittingImages(gemini.provider), request(user("1", heic)));
  expect(lines(gemini.sent[0]!)).toEqual(["look 1", "IMAGE"]);
  const claude = scripted("anthropic", () => {});
  await collect(fittingImages(claude.provider), request(user("1", heic)));
  expect(lines(claude.sent[0]!)[1]).toBe("[image image/heic omitted: Anthropic takes no HEIC; convert it (sips -s format png FILE, or convert FILE OUT.png)]");
});

test("over 20 images in a request to Anthropic, one over 2000 px: the oldest are left out down to 10, the newest (big) one sent", async () => {
  const { provider, sent } = scripted("anthropic", () => {});
  const shots = Array.from({ length: 22 }, (_, n) => image(n === 21 ? 2880 : 700 + n, 1000));
  await collect(fittingImages(provider), request(user("1", ...shots)));
  const out = lines(sent[0]!);
  expect(out.filter((l) => l === "IMAGE").length).toBe(10);
  expect(out.at(-1)).toBe("IMAGE");
  expect(out[1]).toBe(
    "[image image/png omitted: left out to keep the request to 20 images, above which Anthropic takes none over 2000 px; the oldest go first, down to 10, so the next images extend the cached prompt]",
  );
});

test("a screenshot over 2000 px to Anthropic each request, 32 requests: each request repeats the one before whole but for the 21st and the 32nd (before: every request from the 21st on rewrote from its oldest image)", async () => {
  const { provider, sent } = scripted("anthropic", () => {});
  const fitted = fittingImages(provider);
  const history: Message[] = [];
  const notices: string[] = [];
  for (let n = 1; n <= 32; n++) {
    history.push(user(String(n), image(2100 + n, 2000)));
    for (const e of await collect(fitted, request(...history))) if (e.type === "notice") notices.push(e.message);
  }
  const wire = sent.map((r) => r.messages.map((m) => JSON.stringify(m)));
  const rewritten = wire.flatMap((w, r) => (r > 0 && w.slice(0, r).join() !== wire[r - 1]!.join() ? [r + 1] : []));
  expect(rewritten).toEqual([21, 32]);
  expect(sent.map((r) => lines(r).filter((l) => l === "IMAGE").length).slice(19)).toEqual([20, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 10]);
  expect(notices.map((m) => m.split(":")[0])).toEqual([
    "11 images are sent as a line saying so, not as an image",
    "11 images are sent as a line saying so, not as an image",
  ]);
});

test("Gemini, a turn of 20 KB of text more: the same images are left out (the room is counted in steps, so a little more text moves no earlier crossing of the limit)", async () => {
  const { provider, sent } = scripted("google", () => {});
  const fitted = fittingImages(provider);
  // ten of 2,043,500 bytes as base64 (20,435,000: under the room by less than 20 KB), then one of 8,000,000
  const shots = Array.from({ length: 11 }, (_, n) => image(n + 1, n < 10 ? 1_532_625 : 6_000_000));
  const history = shots.map((p, n) => user(String(n + 1), p));
  await collect(fitted, request(...history));
  await collect(fitted, request(...history, { id: "t", role: "user", content: [{ type: "text", text: "x".repeat(20_000) }] }));
  expect(lines(sent[0]!).filter((l) => l === "IMAGE").length).toBe(5);
  expect(lines(sent[1]!).slice(0, -1)).toEqual(lines(sent[0]!));
});

test("Gemini, 90 requests each adding a 252 KB screenshot and 60 KB of text: an image once sent as its line is never sent again, though each request's room is smaller (before: images left out came back as the room shrank a step)", async () => {
  const { provider, sent } = scripted("google", () => {});
  const fitted = fittingImages(provider);
  const history: Message[] = [];
  for (let n = 1; n <= 90; n++) {
    const shot = image(1000 + n, 189_000); // 252,000 bytes as base64
    history.push({ id: String(n), role: "user", content: [{ type: "text", text: `look ${n} ${"x".repeat(60_000)}` }, shot] });
    await collect(fitted, request(...history));
  }
  /** Which images (1-based, by request) each request sent as images. */
  const shown = sent.map((r) => r.messages.flatMap((m, i) => (m.content.some((p) => p.type === "image") ? [i + 1] : [])));
  const wire = sent.map((r) => r.messages.map((m) => JSON.stringify(m)));
  const rewritten = wire.flatMap((w, r) => (r > 0 && w.slice(0, r).join() !== wire[r - 1]!.join() ? [r + 1] : []));
  let left = new Set<number>();
  for (const [r, images] of shown.entries()) {
    for (const i of images) expect(left.has(i)).toBe(false);
    left = new Set(Array.from({ length: r + 1 }, (_, i) => i + 1).filter((i) => !images.includes(i)));
  }
  expect(rewritten).toEqual([66]); // one crossing: 32 of 66 images sent, then one more each request
  expect(shown.at(-1)!.length).toBe(56);
});
