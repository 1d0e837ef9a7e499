// Images for the model (SPEC §4): recognised by their bytes, not their names.

/**
 * The most any of the four APIs takes of one image, as base64 (what is sent): OpenAI's and
 * Gemini's 20 MB. A provider with a smaller limit (Anthropic's 5 MB) has the image left out of its
 * requests with a line saying so (providers/image-fit.ts); a bigger one is refused when read.
 */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;

/** The smallest per-image limit of the four APIs (Anthropic: 5 MB): what MCP servers' images are held to. */
export const SMALLEST_IMAGE_BYTES = 5 * 1024 * 1024;

/** How to make an image smaller, for the messages that refuse one. */
/** How to make an image of too many bytes smaller: its pixels may be few already (a 1250 px PNG of noise), so a lossy format first. */
export const SHRINK_HINT = "make it smaller (as JPEG: sips -s format jpeg FILE --out OUT.jpg, or convert FILE -quality 85 OUT.jpg)";
/** How to bring an image of too many pixels within a side's limit. */
export const SCALE_HINT = "scale it down (sips -Z 2000 FILE, or convert FILE -resize 2000x2000 OUT.png)";

/**
 * The media type of a PNG, JPEG, GIF or WebP image, or of a HEIC/HEIF one (Gemini takes those; the
 * other APIs get a line: providers/image-fit.ts), or undefined for anything else.
 */
export function sniffImage(bytes: Uint8Array): string | undefined {
  const at = (i: number, ...values: number[]) => bytesAt(bytes, i, values);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return "image/gif"; // "GIF8"
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp"; // "RIFF....WEBP"
  const brand = ftypBrand(bytes);
  if (brand && /^he[ivs][cxms]$/.test(brand)) return "image/heic"; // heic, heix, hevc, hevx, heim, heis
  if (brand === "mif1" || brand === "msf1" || brand === "heif") return "image/heif";
  return undefined;
}

/** Whether `bytes` hold `values` from `i` on: a format's magic number. */
const bytesAt = (bytes: Uint8Array, i: number, values: number[]) => values.every((v, k) => bytes[i + k] === v);

/** The major brand of an ISO media file ("....ftypBRND"), or undefined. */
const ftypBrand = (bytes: Uint8Array) =>
  bytes.length >= 12 && String.fromCharCode(...bytes.subarray(4, 8)) === "ftyp" ? String.fromCharCode(...bytes.subarray(8, 12)) : undefined;

/** Types imageSize can read the size of; another (HEIC) is sent without one. */
const SIZED = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The name of an image format no model API takes (TIFF, BMP, ICO, AVIF), or undefined. */
export function sniffUnsendable(bytes: Uint8Array): string | undefined {
  const at = (i: number, ...values: number[]) => bytesAt(bytes, i, values);
  if (at(0, 0x49, 0x49, 0x2a, 0x00) || at(0, 0x4d, 0x4d, 0x00, 0x2a)) return "TIFF";
  if (at(0, 0x42, 0x4d) && at(6, 0, 0, 0, 0)) return "BMP"; // "BM", then reserved zeros (no text has them)
  if (at(0, 0, 0, 1, 0) && bytes[4]! > 0 && at(5, 0)) return "ICO";
  if (ftypBrand(bytes)?.startsWith("avi")) return "AVIF";
  return undefined;
}

/** Why a file in the image format `name` (sniffUnsendable) is not sent, and how to convert it. */
export const unsendable = (name: string) =>
  `a ${name} image, a format the model APIs do not take; convert it to PNG (sips -s format png FILE --out OUT.png, or convert FILE OUT.png)`;

/** The base64 length of `bytes` bytes: what an API that measures the encoded image counts. */
export const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** The width and height an image's header states, or undefined when the header is cut short or unreadable. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const type = sniffImage(bytes);
  const has = (n: number) => bytes.length >= n;
  const be16 = (i: number) => (bytes[i]! << 8) | bytes[i + 1]!;
  const le16 = (i: number) => bytes[i]! | (bytes[i + 1]! << 8);
  const le24 = (i: number) => le16(i) | (bytes[i + 2]! << 16);
  const tag = (i: number) => String.fromCharCode(...bytes.subarray(i, i + 4));
  if (type === "image/png" && has(24) && tag(12) === "IHDR") return size(be16(16) * 65536 + be16(18), be16(20) * 65536 + be16(22));
  if (type === "image/gif" && has(10)) return size(le16(6), le16(8));
  if (type === "image/jpeg") return jpegSize(bytes, be16);
  if (type !== "image/webp" || !has(30)) return undefined;
  if (tag(12) === "VP8X") return size(le24(24) + 1, le24(27) + 1);
  if (tag(12) === "VP8L" && bytes[20] === 0x2f) {
    const [b1, b2, b3, b4] = [bytes[21]!, bytes[22]!, bytes[23]!, bytes[24]!];
    return size(1 + (((b2 & 0x3f) << 8) | b1), 1 + (((b4 & 0x0f) << 10) | (b3 << 2) | ((b2 & 0xc0) >> 6)));
  }
  if (tag(12) === "VP8 " && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) return size(le16(26) & 0x3fff, le16(28) & 0x3fff);
  return undefined;
}

const size = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined);

/** A JPEG's size from its first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegSize(bytes: Uint8Array, be16: (i: number) => number): { width: number; height: number } | undefined {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = bytes[i + 1]!;
    if (marker === 0xff) i++;
    else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return size(be16(i + 7), be16(i + 5));
    else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) i += 2;
    else i += 2 + be16(i + 2);
  }
  return undefined;
}

/**
 * Why the image `bytes` of the file of `size` bytes cannot be sent to any API, or undefined: over
 * IMAGE_MAX_BYTES as base64, or its header or (a PNG's) data cut short (a truncated download is no image).
 */
export function imageProblem(bytes: Uint8Array, size: number, mediaType: string): string | undefined {
  const sent = base64Length(size);
  if (sent > IMAGE_MAX_BYTES)
    return `image of ${mb(size)} MB (${mb(sent)} MB as sent) is over the ${IMAGE_MAX_BYTES / 1048576} MB the model APIs take; ${SHRINK_HINT}`;
  if (SIZED.has(mediaType) && !imageSize(bytes)) return `not an image that can be sent: its ${mediaType} header is cut short or unreadable`;
  // a PNG ends with its IEND chunk (the name, then 4 bytes of CRC): one without it was cut short (a download, a copy)
  if (mediaType === "image/png" && String.fromCharCode(...bytes.subarray(-8, -4)) !== "IEND")
    return "not an image that can be sent: its image/png data is cut short (no IEND chunk at its end)";
  return undefined;
}

const mb = (n: number) => (n / 1048576).toFixed(1);

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}
