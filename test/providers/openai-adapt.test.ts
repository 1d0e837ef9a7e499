// adaptToRefusal as a table: which refusal changes which option of the next request.
import { expect, test } from "bun:test";
import { type Adaptable, adaptToRefusal } from "../../src/providers/openai-adapt.ts";

const base = (): Adaptable => ({ cacheKey: true, reasoningReplay: "sent" });

test.each([
  // Groq (iamsrikanthnani/pluely#219), xAI (BerriAI/litellm#16265), Ollama (ollama/ollama#12561, taketwo/llm-ollama#54), OpenAI
  "`reasoning_effort` must be one of `none` or `default`",
  "Model grok-4-latest does not support parameter reasoningEffort.",
  'think value "medium" is not supported for this model',
  '"registry.ollama.ai/library/llama3.2:latest" does not support thinking',
  "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
])("a model without the dial (%s): no effort is sent from then on, and the user is told once", (said) => {
  const options = base();
  expect(adaptToRefusal(options, said)).toBe("this model takes no reasoning effort: none is sent from now on");
  expect(options).toEqual({ ...base(), sendEffort: false });
  expect(adaptToRefusal(options, said)).toBe(false);
});

test.each([
  ["Unrecognized request argument supplied: stream_options", { streamUsage: false }],
  ["request rejected (400): Conversation roles must alternate user/assistant/user/assistant/...", { joinUserTurns: true }], // vLLM, TGI with a strict template
  ["Unrecognized request argument supplied: prompt_cache_key", { cacheKey: false }],
  ["Tool call id was call_1 but must be a-z, A-Z, 0-9, with a length of 9.", { nineCharIds: true }],
  ["Function call is missing a thought_signature in functionCall parts.", { signatureFallback: true }],
  ["The reasoning_content in the thinking mode must be passed back to the API.", { reasoningReplay: "all" }],
  ["Missing `reasoning_content` field in the assistant message at message index 2.", { reasoningReplay: "all" }],
  [
    '{"detail":[{"type":"extra_forbidden","loc":["body","messages",2,"assistant","reasoning_content"],"msg":"Extra inputs are not permitted"}]}',
    { reasoningReplay: "none" },
  ],
  // Groq's and Cerebras' words for a field they do not take on an assistant message
  [
    "'messages.2' : for 'role:assistant' the following must be satisfied[('messages.2' : property 'reasoning_content' is unsupported)]",
    { reasoningReplay: "none" },
  ],
  ["property 'messages.2.assistant.reasoning_content' is unsupported", { reasoningReplay: "none" }],
  ["'messages.2' : for 'role:assistant' the following must be satisfied[('messages.2' : property 'reasoning' is unsupported)]", { reasoningReplay: "none" }],
] as const)("%s → %o", (said, change) => {
  const options = base();
  expect(adaptToRefusal(options, said)).toBe(true);
  expect(options).toEqual({ ...base(), ...change });
  // made for good: the same refusal again changes nothing more
  expect(adaptToRefusal(options, said)).toBe(false);
});

test("only DeepSeek's words ask for every turn's reasoning: another 400 naming reasoning_content changes nothing", () => {
  const options = base();
  expect(adaptToRefusal(options, "messages.2.reasoning_content: Input should be a valid string")).toBe(false);
  expect(options).toEqual(base());
});

test("a refusal that names nothing hey can leave out changes nothing", () => {
  const options = base();
  expect(adaptToRefusal(options, "messages[3]: bad role")).toBe(false);
  expect(options).toEqual(base());
});

test("a level the model does not take, where the refusal lists those it does, becomes the nearest listed: the dial stays", () => {
  const options: Adaptable = { ...base(), effortFor: {} };
  const said = "Unsupported value: 'reasoning_effort' does not support 'none' with this model. Supported values are: 'minimal', 'low', 'medium', and 'high'.";
  expect(adaptToRefusal(options, said)).toBe("this model does not take effort none: minimal is sent instead"); // told the user
  expect(options).toEqual({ ...base(), effortFor: { none: "minimal" } });
  // a model with no such dial at all still gets none
  expect(adaptToRefusal(options, "`reasoning_effort` must be one of `none` or `default`")).toBe(
    "this model takes no reasoning effort: none is sent from now on",
  );
  expect(options.sendEffort).toBe(false);
});

test.each([
  "Failed to deserialize the JSON body into the target type: messages[1]: unknown variant `image_url`, expected `text` at line 1 column 2385", // DeepSeek
  "Invalid content type. image_url is only supported by certain models.", // OpenAI (vllm-project/vllm#11629)
  "this model does not support image input (ref: b8bd630e-4a39-4b57-82af-9158ee9d5703)", // Ollama cloud (ollama/ollama#17301)
  "BadRequest: Model do not support image input. Request id: 0217", // anomalyco/opencode#47994
  "No endpoints found that support image input", // OpenRouter's 404 (nexu-io/nexu#733)
  "image input is not supported for this model",
])("a text-only model refusing an image (%s): images go as placeholders from then on, the user told once", (said) => {
  const options = base();
  expect(adaptToRefusal(options, said)).toBe("this model takes no images: each image of the conversation is sent as a line saying it was left out");
  expect(options).toEqual({ ...base(), noImages: true });
  expect(adaptToRefusal(options, said)).toBe(false);
});

test.each([
  ["Ollama, a model without its vision data", "this model is missing data required for image input"],
  ["vLLM, a text-only model", "At most 0 image(s) may be provided in one request."],
  ["DeepSeek", "unknown variant `image_url`, expected `text`"],
])("%s: images go as lines from then on, and the user is told", (_name, said) => {
  const options: Adaptable = {};
  expect(adaptToRefusal(options, said)).toBe("this model takes no images: each image of the conversation is sent as a line saying it was left out");
  expect(options.noImages).toBe(true);
});

test("a gateway that refuses Anthropic's cache_control markers gets the request again without them, for good", () => {
  const options: Adaptable = { ...base(), cacheMarks: true };
  const said = "messages.1.content.0.cache_control: Extra inputs are not permitted";
  expect(adaptToRefusal(options, said)).toBe(true);
  expect(options).toEqual({ ...base(), cacheMarks: false });
  expect(adaptToRefusal(options, said)).toBe(false);
});

// OpenAI since gpt-5.4 (openai/openai-openapi#541): the model takes effort, only not with tools over chat completions
test("OpenAI's refusal of effort with tools on chat completions says so truthfully, and where effort is taken", () => {
  const said =
    "reasoning_effort: Function tools with reasoning_effort are not supported for gpt-5.5 in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.";
  const options: Adaptable = { ...base(), effortFor: {} };
  const told = adaptToRefusal(options, said, "gpt");
  expect(told).toBe(
    'with tools, OpenAI takes reasoning effort only over Responses: set protocol = "responses" in [provider.gpt]; until then no effort is sent',
  );
  expect(told).not.toContain("takes no reasoning effort");
  expect(options.sendEffort).toBe(false);
  expect(adaptToRefusal(options, said, "gpt")).toBe(false); // once
  // --base-url's provider has no table: its flag
  expect(adaptToRefusal({ ...base(), effortFor: {} }, said, "cli")).toContain("use --protocol responses (HEY_PROTOCOL=responses)");
});
