// Images for the model (SPEC §4): recognised by their bytes, not their names.

/** The smallest per-image limit of the four APIs (Anthropic: 5 MB); bigger images are refused. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The media type of a PNG, JPEG, GIF or WebP image, or undefined for anything else. */
export function sniffImage(bytes: Uint8Array): string | undefined {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return "image/gif"; // "GIF8"
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp"; // "RIFF....WEBP"
  return undefined;
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}
