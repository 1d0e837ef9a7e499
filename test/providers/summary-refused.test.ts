// An OpenAI organization that is not verified may not have reasoning summaries: OpenAI answers
// hey's `reasoning.summary: "auto"` (sent with every effort over Responses) with a 400. The request
// goes again at once without it, and so do the run's later ones, with a notice saying why thinking
// is not shown and how to get it. Before, every effort but off failed with exit 1.
import { afterAll, expect, test } from "bun:test";
import { createResponsesProvider } from "../../src/providers/responses.ts";
import { drain } from "../helpers/drain.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { startRefusingServer } from "../helpers/refusing-server.ts";

// OpenAI's 400, as it answers an unverified organization
const UNVERIFIED = {
  status: 400,
  error: {
    error: {
      message:
        "Your organization must be verified to generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.",
      type: "invalid_request_error",
      param: "reasoning.summary",
      code: "unsupported_value",
    },
  },
};
type Body = { reasoning?: { effort: string; summary?: string } };
const server = startRefusingServer((body) => ((body as Body).reasoning?.summary ? UNVERIFIED : textReply("responses", "Hi.")));
afterAll(() => server.stop());

const hi = { system: "", messages: [{ id: "u1", role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }], tools: [] };

test("reasoning summaries refused to an unverified organization: sent again without them, for the run, said once with how to get them", async () => {
  const provider = await createResponsesProvider({ model: "gpt-5", baseUrl: `${server.url}/v1`, apiKey: "k", effort: "high" });
  const first = await drain(provider.stream(hi, new AbortController().signal));
  const second = await drain(provider.stream(hi, new AbortController().signal));
  expect(first.error).toBeUndefined();
  expect(second.error).toBeUndefined();
  expect(server.bodies.map((b) => (b as Body).reasoning)).toEqual([{ effort: "high", summary: "auto" }, { effort: "high" }, { effort: "high" }]);
  expect([...first.events, ...second.events].filter((e) => e.type === "notice")).toEqual([
    {
      type: "notice",
      message:
        "this OpenAI organization is not verified for reasoning summaries: the model still thinks, but its thinking is not shown — verify the organization (platform.openai.com/settings/organization/general) to see it",
    },
  ]);
  expect(first.events.filter((e) => e.type === "text").map((e) => (e as { delta: string }).delta)).toEqual(["Hi."]);
});
