// An error inside a 200 answer that says the key or account is refused, the quota is spent or the
// request is wrong is final on all four protocols: one request, and a refused key is said as a 401
// is, naming the key to check. Before, any such words also holding "try again", or not on hey's
// list ("Incorrect API key", "expired", "suspended", an `authentication_error` type), were retried
// five times over 45 s. Only words of a limit or an overload beside them keep one retried. Real
// SDKs against a loopback replay server, through createProvider as hey makes them.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage, type Protocol } from "../../src/kernel/ir.ts";
import { ProviderError, type ProviderErrorKind } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { baseUrlFor } from "../helpers/protocol-streams.ts";
import { jsonReply, startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

/** [the error object of the body, the kind it is read as] */
const ERRORS: [Record<string, unknown>, ProviderErrorKind][] = [
  [{ message: "Invalid API key. Please check your key and try again.", type: "authentication_error" }, "auth"],
  [{ message: "x-api-key header is required", type: "authentication_error" }, "auth"],
  [{ message: "Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys." }, "auth"],
  [{ message: "invalid x-api-key", code: "invalid_api_key" }, "auth"],
  [{ message: "Your API key has expired. Please renew it." }, "auth"],
  [{ message: "Your account has been suspended. Contact support." }, "auth"],
  [{ message: "This organization has been disabled." }, "auth"],
  [{ message: "The access token has been revoked" }, "auth"],
  [{ message: "missing credentials", code: "unauthenticated" }, "auth"],
  [{ message: "Unauthorized" }, "auth"],
  [{ message: "You do not have permission to use this model; ask your gateway's admin" }, "auth"],
  [{ message: "无效的令牌" }, "auth"],
  [{ message: "You exceeded your current quota, please check your plan and billing details. Try again later." }, "quota_exhausted"],
  [{ message: "该令牌额度已用尽" }, "quota_exhausted"],
  [{ message: "The model `gpt-9` does not exist. Route via gateway." }, "bad_request"],
  [{ message: "Model not found on this connection" }, "bad_request"],
  [{ message: "Invalid value for 'temperature': internal validation failed" }, "bad_request"],
  [{ message: "API key rate limit exceeded, please try again later" }, "overloaded"],
  [{ message: "Invalid upstream answer: the upstream model is overloaded" }, "overloaded"],
  [{ message: "Bad Gateway: upstream sent an invalid response" }, "overloaded"],
  [{ message: "upstream connect error or disconnect/reset before headers. reset reason: connection termination" }, "overloaded"],
  // a limit on the key is a wait, not a refused key (review x133): retried, and handed to a fallback
  [{ message: "API key usage limit exceeded, please retry in 2s" }, "overloaded"],
  [{ message: "RPM limit exceeded for api key sk-***" }, "overloaded"],
  [{ message: "该令牌请求过于频繁，请稍后再试" }, "overloaded"],
];

const PROTOCOLS: Protocol[] = ["google", "anthropic", "openai", "responses"];

test.each(PROTOCOLS.flatMap((p) => ERRORS.map(([error, kind]) => [p, error.message, kind, error] as const)))(
  "%s: a 200 body holding %p is %s, after one request",
  async (protocol, said, kind, error) => {
    const provider = await createProvider({ protocol, model: "m", baseUrl: baseUrlFor(protocol, server.url), apiKey: "KEY" });
    const before = server.requests.length;
    server.enqueue(jsonReply(200, { error }));
    const { error: failure } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
    expect(failure).toBeInstanceOf(ProviderError);
    expect(server.requests.length - before).toBe(1);
    expect((failure as ProviderError).kind).toBe(kind);
    expect((failure as ProviderError).message).toContain(said as string);
    if (kind === "auth") expect((failure as ProviderError).message).toMatch(/^authentication failed .*— check the provider's api_key$/);
  },
);
