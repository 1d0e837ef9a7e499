// The next request of a redirect chain (src/net/redirects.ts), by fetch's rules.
import { expect, test } from "bun:test";
import { MAX_REDIRECTS, nextHop, type Hop } from "../../src/net/redirects.ts";

const hop = (over: Partial<Hop> = {}): Hop => ({
  url: new URL("https://api.example/v1/chat"),
  method: "POST",
  headers: new Headers({ "content-type": "application/json", authorization: "Bearer k", "x-goog-api-key": "g", "api-key": "a", "x-team": "core" }),
  body: "{}",
  ...over,
});

test.each([
  ["a relative Location resolves against the current URL", "POST", 307, "../models", "https://api.example/models", "POST"],
  ["a PUT redirected with 303 becomes a GET", "PUT", 303, "/x", "https://api.example/x", "GET"],
  ["a PUT redirected with 302 stays a PUT", "PUT", 302, "/x", "https://api.example/x", "PUT"],
  ["a HEAD redirected with 303 stays a HEAD", "HEAD", 303, "/x", "https://api.example/x", "HEAD"],
])("%s", (_name, from, status, location, url, method) => {
  const next = nextHop(hop({ method: from }), status, location, 1);
  expect(next?.url.href).toBe(url);
  expect(next?.method).toBe(method);
});

test("a GET drops the body and the headers that describe it; another origin drops every credential header", () => {
  const next = nextHop(hop(), 303, "https://cdn.example/x", 1)!;
  expect(next.body).toBeNull();
  expect(Object.fromEntries(next.headers)).toEqual({ "x-team": "core" });
});

test("no Location: the redirect is the answer", () => {
  expect(nextHop(hop(), 302, null, 1)).toBeUndefined();
});

test.each([
  ["a Location that is not HTTP", hop(), 302, "ftp://files.example/x", 1, "UnsupportedRedirectProtocol"],
  ["one redirect too many", hop(), 302, "/again", MAX_REDIRECTS + 1, "TooManyRedirects"],
  ["a streamed body asked for again (307)", hop({ body: new ReadableStream() }), 307, "/again", 1, "UnexpectedRedirect"],
])("%s is refused, as fetch refuses it", (_name, from, status, location, count, code) => {
  expect(() => nextHop(from, status, location, count)).toThrow(expect.objectContaining({ code }));
});

test.each([
  ["Azure API Management's subscription key", "Ocp-Apim-Subscription-Key"],
  ["Cloudflare's key", "X-Auth-Key"],
  ["Azure Functions' key", "x-functions-key"],
  ["a gateway's token", "X-Auth-Token"],
  ["a secret", "x-api-secret"],
  ["Proxy-Authorization", "Proxy-Authorization"],
])("%s (%s) stays with its origin: a redirect elsewhere drops it, one on the same origin keeps it", (_what, name) => {
  const from = hop({ headers: new Headers({ [name]: "k-1", "anthropic-version": "2023-06-01", "x-request-id": "r1" }) });
  expect(Object.fromEntries(nextHop(from, 307, "https://elsewhere.example/v1/chat", 1)!.headers)).toEqual({
    "anthropic-version": "2023-06-01",
    "x-request-id": "r1",
  });
  expect(nextHop(from, 307, "/v2/chat", 1)!.headers.get(name)).toBe("k-1");
});
