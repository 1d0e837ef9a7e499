// A response body read as text up to a size: the model list of a base_url that points at the
// wrong thing (a file server's multi-gigabyte download, an endless event stream) is given up on
// at the cap instead of filling memory until the request's deadline.

/** What a model list or a probe's answer may hold: OpenRouter's list of every model is a few MB. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The body as text, or `cut` once it passed `maxBytes` (the rest is not read: the body is cancelled). */
export async function bodyText(res: Response, maxBytes = MAX_BODY_BYTES): Promise<{ text: string; cut: boolean }> {
  const reader = res.body?.getReader();
  if (!reader) return { text: "", cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return { text: "", cut: true };
    }
    chunks.push(value);
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), cut: false };
}
