// Which images give way when a request's images pass what its API takes together (bytes per
// request; Claude's count of images when any is over a size a side): the oldest, and once some
// must go, down to a low-water mark (half the limit), so the next images extend one cached prompt
// until the limit is reached again — the budget's rule for what it drops (context/budget.ts
// LOW_WATER). Before, each new image past the limit dropped exactly the oldest one, and every
// request rewrote the prompt from the first image on. The choice is a function of the images
// alone, replayed oldest first as if each were added on its own, each against the byte room of
// the request that added it (the text before an image is fixed once it is in the history): the
// same history leaves out the same images in every request and after a resume, another image or
// more text changes the choice only when the images kept reach the limit again, and while the
// history only grows, what one request leaves out every later one leaves out too: an image once
// replaced by its line is not sent again (a replay against this request's smaller room could
// cross earlier and keep a different, older run of images). Pure.

/**
 * Once images must go for a limit, the oldest go until the rest take this share of it: 10 of
 * Claude's 20 images, about 10 of Gemini's 20 MB. The next images (ten screenshots) extend the
 * same prompt before the next drop; the model keeps seeing the newest ten.
 */
export const IMAGE_LOW_WATER = 0.5;

/** How many images stay once some went for a limit of `count` images. */
export const lowCount = (count: number) => Math.max(1, Math.floor(count * IMAGE_LOW_WATER));

/**
 * What an image weighs against the limits: its base64 bytes and its longer side in px (0 when
 * unknown); and `room`, the bytes the images could take together in the request that added it,
 * when that differs from this request's (the text up to it is in every later request too).
 */
export interface ImageWeight {
  bytes: number;
  side: number;
  room?: number;
}

export interface ImageLimits {
  /** bytes the images may take together in this request (no more than any image's own `room`) */
  room: number;
  /** over `count` images, none may be over `side` px a side */
  many?: { count: number; side: number };
}

/** Which limit an image was left out for. */
export type GaveWayFor = "room" | "count";

/**
 * The images of `images` (oldest first) to leave out so the rest fit `limits`, by index, and the
 * limit each went for. Replayed oldest first: when an image takes the images kept past a limit
 * (the byte room as of that image), the oldest kept go until they are under IMAGE_LOW_WATER of
 * that limit (the newest always stays, unless alone it is over the room); then the same against
 * this request's room, smaller by the text since. A room that shrank between two requests only
 * adds to the images left out: those kept after an earlier crossing were under half a room at
 * least as large, and any crossing after it leaves the rest under half a room no larger.
 */
export function imagesGivingWay(images: readonly ImageWeight[], limits: ImageLimits): Map<number, GaveWayFor> {
  const out = new Map<number, GaveWayFor>();
  const { many } = limits;
  const isBig = (w: ImageWeight) => many !== undefined && w.side > many.side;
  let kept: number[] = []; // indexes of the images kept so far, oldest first
  let bytes = 0;
  let big = 0;
  const leave = (i: number, why: GaveWayFor) => {
    out.set(i, why);
    bytes -= images[i]!.bytes;
    if (isBig(images[i]!)) big--;
  };
  /** Leaves out the oldest kept, down to the low-water mark, when the images kept pass `room` or the count. */
  const fit = (room: number) => {
    const overRoom = bytes > room;
    const overCount = many !== undefined && kept.length > many.count && big > 0;
    if (!overRoom && !overCount) return;
    const why: GaveWayFor = overRoom ? "room" : "count";
    const lowRoom = room * IMAGE_LOW_WATER;
    let drop = 0;
    while (drop < kept.length - 1 && ((overRoom && bytes > lowRoom) || (overCount && kept.length - drop > lowCount(many.count)))) leave(kept[drop++]!, why);
    if (bytes > room) leave(kept[drop++]!, "room"); // the newest alone is over the room
    kept = kept.slice(drop);
  };
  let room = Number.POSITIVE_INFINITY; // the room as of the image added last: it only shrinks as the text grows
  for (const [i, w] of images.entries()) {
    kept.push(i);
    bytes += w.bytes;
    if (isBig(w)) big++;
    room = Math.min(room, w.room ?? limits.room);
    fit(room);
  }
  if (kept.length > 0) fit(Math.min(room, limits.room));
  return out;
}
