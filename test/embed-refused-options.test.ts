// Options no endpoint or vendor would take, refused where the program gives them (src/lib.ts),
// each error naming the option, the value and what is accepted, instead of failing later or cryptically.
import { expect, test } from "bun:test";
import { createProvider } from "../src/lib.ts";

test("createProvider refuses a protocol hey has no adapter for as the CLI does, with its suggestion, not a TypeError", async () => {
  // before: "undefined is not an object (evaluating 'provider.protocol')"
  await expect(createProvider({ protocol: "claude" as never, baseUrl: "http://127.0.0.1:9/v1", model: "m" })).rejects.toThrow(
    `createProvider's protocol must be one of openai, responses, anthropic, google, got "claude"; did you mean anthropic?`,
  );
});

test.each(["not a url", "ftp://127.0.0.1/v1", ""])("createProvider refuses the baseUrl %p at once, not at the first send", async (baseUrl) => {
  await expect(createProvider({ protocol: "openai", baseUrl, model: "m" })).rejects.toThrow(
    `createProvider's baseUrl must be an http:// or https:// URL, got ${JSON.stringify(baseUrl)}`,
  );
});
