// An image the API refuses does not make the conversation unusable: dist/hey sends the request again
// at once with a line in the image's place, tells the user in one line, and a later `hey -c` goes on
// too. An image over what the API takes per image (Anthropic's 5 MB of base64) goes as such a line
// before it is refused at all.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { jsonReply } from "../helpers/replay-server.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-refused-images-");

/** A PNG `width`×`height` px of `bytes` bytes: its signature and header, filler, and its IEND chunk. */
function png(width: number, height: number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(out.buffer).setUint32(16, width);
  new DataView(out.buffer).setUint32(20, height);
  out.set([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82], bytes - 12);
  return out;
}

type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[] };
const kinds = (i: number) =>
  (server.requests.at(i)!.body as Body).messages.flatMap((m) => (typeof m.content === "string" ? ["text"] : m.content.map((p) => p.type)));
const texts = (i: number) => JSON.stringify((server.requests.at(i)!.body as Body).messages);

const run = (home: string, ...args: string[]) =>
  runHey(["--base-url", `${server.url}/v1`, "--protocol", "anthropic", "-m", "claude-sonnet-4-5", "--output", "json", ...args], {
    cwd: work.path,
    env: { HOME: home, XDG_CONFIG_HOME: `${home}/.config`, XDG_STATE_HOME: `${home}/.state`, XDG_DATA_HOME: `${home}/.data`, XDG_CACHE_HOME: `${home}/.cache` },
  });

const REFUSAL = {
  type: "error",
  error: { type: "invalid_request_error", message: "messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 6253660 bytes > 5242880 bytes" },
};

test("an image the API refuses (400 'image exceeds 5 MB maximum'): the request goes again at once with a line in its place, the run answers, and `hey -c` goes on (before: every later request failed the same 400)", async () => {
  const home = tempDir("hey-refused-home-");
  try {
    writeFileSync(join(work.path, "shot.png"), png(800, 600, 2000));
    const before = server.requests.length;
    server.enqueue(jsonReply(400, REFUSAL), textReply("anthropic", "I cannot see it."));
    const first = await run(home.path, "-p", "what is wrong in @shot.png");
    expect(first.code).toBe(0);
    expect(server.requests.length - before).toBe(2);
    expect(kinds(-2)).toContain("image");
    expect(kinds(-1)).not.toContain("image");
    expect(texts(-1)).toContain("[image image/png omitted: the API refused it: image exceeds 5 MB maximum]");
    const events = jsonEvents(first.stdout);
    expect(events.filter((e) => e.type === "notice").map((e) => e.message)).toEqual([
      "an image is sent as a line saying so, not as an image: the API refused it: image exceeds 5 MB maximum",
    ]);
    expect(events.filter((e) => e.type === "text_delta").map((e) => e.text)).toEqual(["I cannot see it."]);

    // the session keeps the image; the next run learns the refusal again with one request, and goes on
    server.enqueue(jsonReply(400, REFUSAL), textReply("anthropic", "hi"));
    const resumed = await run(home.path, "-c", "-p", "ok forget the image. say hi");
    expect(resumed.code).toBe(0);
    expect(kinds(-1)).not.toContain("image");
    expect(
      jsonEvents(resumed.stdout)
        .filter((e) => e.type === "text_delta")
        .map((e) => e.text),
    ).toEqual(["hi"]);
  } finally {
    home.remove();
  }
});

test("@mid.png, a 4 MB PNG (5.3 MB as base64), to Anthropic: refused before sending, naming Anthropic's 5 MB per image and how to shrink it; to an OpenAI endpoint it goes (before: sent, then a 400 on every request)", async () => {
  const home = tempDir("hey-refused-home-");
  try {
    writeFileSync(join(work.path, "mid.png"), png(1600, 1200, 4 * 1024 * 1024));
    const before = server.requests.length;
    const refused = await run(home.path, "-p", "what is in @mid.png");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "@mid.png: 5.3 MB as sent is over the 5 MB Anthropic takes per image; make it smaller (as JPEG: sips -s format jpeg FILE --out OUT.jpg, or convert FILE -quality 85 OUT.jpg)",
    );
    expect(server.requests.length).toBe(before);

    server.enqueue(textReply("openai", "A chart."));
    const openai = await runHey(["--base-url", `${server.url}/v1`, "--protocol", "openai", "-m", "gpt-5", "-p", "what is in @mid.png"], {
      cwd: work.path,
      env: { HOME: home.path },
    });
    expect(openai.code).toBe(0);
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain("data:image/png;base64,");
  } finally {
    home.remove();
  }
});

test("Ollama's 500 'missing data required for image input' (a model without vision): not retried, the request goes again at once with the image as a line (before: five retries over 44 s, then the same failure)", async () => {
  const home = tempDir("hey-refused-home-");
  try {
    writeFileSync(join(work.path, "dot.png"), png(16, 16, 200));
    const before = server.requests.length;
    server.enqueue(jsonReply(500, { error: "this model is missing data required for image input" }), textReply("openai", "No image for me."));
    const result = await runHey(["--base-url", `${server.url}/v1`, "--protocol", "openai", "-m", "llava", "--output", "json", "-p", "what is in @dot.png"], {
      cwd: work.path,
      env: { HOME: home.path },
    });
    expect(result.code).toBe(0);
    expect(server.requests.length - before).toBe(2);
    const last = JSON.stringify(server.requests.at(-1)!.body);
    expect(last).not.toContain("image_url");
    expect(last).toContain("[image image/png omitted: this model takes no images]");
    expect(
      jsonEvents(result.stdout)
        .filter((e) => e.type === "notice")
        .map((e) => e.message),
    ).toEqual(["this model takes no images: each image of the conversation is sent as a line saying it was left out"]);
  } finally {
    home.remove();
  }
});
