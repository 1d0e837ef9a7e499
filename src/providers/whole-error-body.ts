// The `openai` SDK keeps of an error body only its `error` key when it has one (its client's
// makeStatusError, then APIError.generate: `error = errorResponse['error']`), and keeps the raw body
// nowhere — not in APIError's fields (status, headers, error, code, param, type, requestID), not
// in its message. So a body whose `error` is only the status's name, its words beside it — Fastify's
// own errors (`{"statusCode": 400, "code": "FST_ERR_…", "error": "Bad Request", "message": "…"}`),
// NestJS's built-in exceptions (`{"statusCode": 400, "message": …, "error": "Bad Request"}`,
// docs.nestjs.com/exception-filters) — reached hey as "Bad Request" alone. The SDK keeps a body
// without an `error` key whole (as its `error`), so the body such a server sent is handed to it
// nested as `{"error": body}`: the same bytes, nothing dropped, and openai-errors.ts reads its words
// as from any other body (error-words.ts). Pure.

/**
 * The body to give the SDK for an error response's `text`: `{"error": body}` for a JSON object
 * whose `error` is not an object (a string, a number) beside other keys, which the SDK would cut to
 * that `error`; undefined for any other body (the SDK keeps it as it is).
 */
export function nestedErrorBody(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const o = body as Record<string, unknown>;
  if (o.error === undefined || o.error === null || typeof o.error === "object" || Object.keys(o).length < 2) return undefined;
  return JSON.stringify({ error: body });
}

/** `base`, whose error responses reach the SDK with their body nested as nestedErrorBody says; any other response as it came. */
export function wholeErrorBodies(base: typeof fetch): typeof fetch {
  const kept = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await base(input, init);
    if (response.ok) return response;
    // the SDK reads an error body whole too; one that cannot be read reaches it as it came, to fail there as before
    const text = await response
      .clone()
      .text()
      .catch(() => undefined);
    const nested = text === undefined ? undefined : nestedErrorBody(text);
    if (nested === undefined) return response;
    await response.body?.cancel().catch(() => {});
    const headers = new Headers(response.headers);
    headers.delete("content-length"); // of the body as it came
    return new Response(nested, { status: response.status, statusText: response.statusText, headers });
  };
  return Object.assign(kept, { preconnect: base.preconnect }) as typeof fetch;
}
