// Which images give way past a request's limits (providers/image-room.ts): once some must, the
// oldest go down to half the limit, and the same history leaves out the same images, so the
// requests between two crossings of the limit extend one cached prompt (before: each new image
// past the limit left out the next-oldest, and every request rewrote the prompt from there).
import { expect, test } from "bun:test";
import { imagesGivingWay, type ImageLimits, type ImageWeight } from "../../src/providers/image-room.ts";

const MB = 1024 * 1024;
const CLAUDE: ImageLimits = { room: 31 * MB, many: { count: 20, side: 2000 } };
const GEMINI: ImageLimits = { room: 19 * MB };

/** What each request of a run that adds `images` one at a time leaves out, by index. */
const perRequest = (images: ImageWeight[], limits: ImageLimits) => images.map((_, n) => [...imagesGivingWay(images.slice(0, n + 1), limits).keys()]);

/** The requests (1-based) whose left-out set differs from the one before: where the prompt is rewritten. */
const changes = (sets: number[][]) => sets.flatMap((s, n) => (n > 0 && s.join() !== sets[n - 1]!.join() ? [n + 1] : []));

/** Whether the images kept of `images` fit `limits`. */
function fits(images: ImageWeight[], left: Set<number>, limits: ImageLimits): boolean {
  const kept = images.filter((_, i) => !left.has(i));
  const bytes = kept.reduce((n, w) => n + w.bytes, 0);
  const overCount = limits.many !== undefined && kept.length > limits.many.count && kept.some((w) => w.side > limits.many!.side);
  return bytes <= limits.room && !overCount;
}

test("Claude, 40 screenshots over 2000 px read one a request: the 21st leaves out the oldest 11 (10 sent), and the next change is at the 32nd (before: every request from the 21st on)", () => {
  const shots = Array.from({ length: 40 }, () => ({ bytes: 200_000, side: 2880 }));
  const sets = perRequest(shots, CLAUDE);
  expect(changes(sets)).toEqual([21, 32]);
  expect(sets[19]).toEqual([]);
  expect(sets[20]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]); // 10 sent
  expect(sets[30]).toEqual(sets[20]!); // 20 sent
  expect(sets[31]!.length).toBe(22); // 10 sent
  for (const [n, s] of sets.entries()) expect(fits(shots.slice(0, n + 1), new Set(s), CLAUDE)).toBe(true);
});

test("over 20 images none over 2000 px: none is left out for the count", () => {
  const shots = Array.from({ length: 30 }, () => ({ bytes: 100_000, side: 1600 }));
  expect(imagesGivingWay(shots, CLAUDE).size).toBe(0);
});

test("Gemini's 20 MB, 1 MB screenshots: the first over leaves out down to half the room, held until the room is reached again", () => {
  const shots = Array.from({ length: 40 }, () => ({ bytes: MB, side: 1920 }));
  const sets = perRequest(shots, GEMINI);
  expect(changes(sets)).toEqual([20, 31]);
  expect(sets[19]!.length).toBe(11); // 9 MB sent of the 19 MB room
  for (const [n, s] of sets.entries()) expect(fits(shots.slice(0, n + 1), new Set(s), GEMINI)).toBe(true);
});

test("the newest image alone over the room goes, and the images before it stay", () => {
  const out = imagesGivingWay(
    [
      { bytes: MB, side: 800 },
      { bytes: 20 * MB, side: 800 },
    ],
    GEMINI,
  );
  expect([...out]).toEqual([
    [0, "room"],
    [1, "room"],
  ]);
  const later = imagesGivingWay(
    [
      { bytes: 20 * MB, side: 800 },
      { bytes: MB, side: 800 },
    ],
    GEMINI,
  );
  expect([...later]).toEqual([[0, "room"]]);
});

test("images of mixed sizes and sides, any number a request: every request fits, what one leaves out the next leaves out too, and it changes only when the images kept would pass a limit", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const images = Array.from({ length: 120 }, () => ({ bytes: Math.floor(random() * 3 * MB), side: random() < 0.3 ? 2880 : 1200 }));
  const ends: number[] = [];
  for (let n = 0; n < images.length; n += 1 + Math.floor(random() * 3)) ends.push(n + 1); // 1–3 images a request
  let before = new Set<number>();
  let crossings = 0;
  for (const end of ends) {
    const shown = images.slice(0, end);
    const left = new Set(imagesGivingWay(shown, CLAUDE).keys());
    expect(fits(shown, left, CLAUDE)).toBe(true);
    for (const i of before) expect(left.has(i)).toBe(true);
    if ([...left].join() !== [...before].join()) {
      expect(fits(shown, before, CLAUDE)).toBe(false);
      crossings++;
    }
    before = left;
  }
  expect(crossings).toBeLessThan(ends.length / 4);
});

test("the room one step smaller (the text grew) between two requests: every image left out before stays out (before: a replay against the smaller room kept an older run, and image 5 was sent again)", () => {
  const shots = Array.from({ length: 12 }, () => ({ bytes: 1, side: 0, room: 10 }));
  const first = [...imagesGivingWay(shots, { room: 10 }).keys()];
  expect(first).toEqual([0, 1, 2, 3, 4, 5]);
  const next = [...imagesGivingWay(shots, { room: 8 }).keys()];
  for (const i of first) expect(next).toContain(i);
  expect(next).toEqual(first); // the 6 kept fit the room of 8 too: the same request again
  expect([...imagesGivingWay(shots, { room: 5 }).keys()]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]); // past a room of 5: down to half of it
});

test("Gemini, images and text growing at random, the room shrinking step by step: what one request leaves out every later one leaves out too, and every request fits", () => {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const STEP = 256 * 1024;
  const images: ImageWeight[] = [];
  let text = 0;
  let before = new Set<number>();
  let crossings = 0;
  for (let request = 0; request < 300; request++) {
    text += Math.floor(random() * 40_000); // a turn's text
    const room = 19.5 * MB - text - ((19.5 * MB - text) % STEP);
    for (let k = Math.floor(random() * 3); k > 0; k--) images.push({ bytes: 100_000 + Math.floor(random() * 400_000), side: 1200, room });
    const left = new Set(imagesGivingWay(images, { room }).keys());
    expect(fits(images, left, { room })).toBe(true);
    for (const i of before) expect(left.has(i)).toBe(true);
    if ([...left].join() !== [...before].join()) crossings++;
    before = left;
  }
  expect(crossings).toBeGreaterThan(3);
  expect(crossings).toBeLessThan(60);
});
