// Which images give way when a request's images pass what its API takes together (bytes per
// request; Claude's count of images when any is over a size a side): the oldest, and once some
// must go, down to a low-water mark (half the limit), so the next images extend one cached prompt
// until the limit is reached again — the budget's rule for what it drops (context/budget.ts
// LOW_WATER). Before, each new image past the limit dropped exactly the oldest one, and every
// request rewrote the prompt from the first image on. The choice is a function of the images
// alone, replayed oldest first as if each were added on its own: the same history leaves out the
// same images in every request and after a resume, and an image more changes the choice only
// when it reaches the limit again. Pure.

/**
 * Once images must go for a limit, the oldest go until the rest take this share of it: 10 of
 * Claude's 20 images, about 10 of Gemini's 20 MB. The next images (ten screenshots) extend the
 * same prompt before the next drop; the model keeps seeing the newest ten.
 */
export const IMAGE_LOW_WATER = 0.5;

/** How many images stay once some went for a limit of `count` images. */
export const lowCount = (count: number) => Math.max(1, Math.floor(count * IMAGE_LOW_WATER));

/** What an image weighs against the limits: its base64 bytes and its longer side in px (0 when unknown). */
export interface ImageWeight {
  bytes: number;
  side: number;
}

export interface ImageLimits {
  /** bytes the images may take together in this request */
  room: number;
  /** over `count` images, none may be over `side` px a side */
  many?: { count: number; side: number };
}

/** Which limit an image was left out for. */
export type GaveWayFor = "room" | "count";

/**
 * The images of `images` (oldest first) to leave out so the rest fit `limits`, by index, and the
 * limit each went for. Replayed oldest first: when an image takes the images kept past a limit,
 * the oldest kept go until they are under IMAGE_LOW_WATER of that limit (the newest always
 * stays, unless alone it is over the room).
 */
export function imagesGivingWay(images: readonly ImageWeight[], limits: ImageLimits): Map<number, GaveWayFor> {
  const out = new Map<number, GaveWayFor>();
  const { room, many } = limits;
  const lowRoom = room * IMAGE_LOW_WATER;
  const isBig = (w: ImageWeight) => many !== undefined && w.side > many.side;
  let kept: number[] = []; // indexes of the images kept so far, oldest first
  let bytes = 0;
  let big = 0;
  const leave = (i: number, why: GaveWayFor) => {
    out.set(i, why);
    bytes -= images[i]!.bytes;
    if (isBig(images[i]!)) big--;
  };
  for (const [i, w] of images.entries()) {
    kept.push(i);
    bytes += w.bytes;
    if (isBig(w)) big++;
    const overRoom = bytes > room;
    const overCount = many !== undefined && kept.length > many.count && big > 0;
    if (!overRoom && !overCount) continue;
    const why: GaveWayFor = overRoom ? "room" : "count";
    let drop = 0;
    while (drop < kept.length - 1 && ((overRoom && bytes > lowRoom) || (overCount && kept.length - drop > lowCount(many.count)))) leave(kept[drop++]!, why);
    if (bytes > room) leave(kept[drop++]!, "room"); // the newest alone is over the room
    kept = kept.slice(drop);
  }
  return out;
}
