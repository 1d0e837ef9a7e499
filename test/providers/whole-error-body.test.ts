// Which error bodies are handed to the openai SDK nested, so that it keeps them whole
// (src/providers/whole-error-body.ts): only an object whose `error` is not an object, beside other keys.
import { expect, test } from "bun:test";
import { nestedErrorBody } from "../../src/providers/whole-error-body.ts";

test.each([
  ["Fastify: the status's name beside the message", { statusCode: 400, error: "Bad Request", message: "m" }, true],
  ["a numeric error beside the message", { error: 500, message: "m" }, true],
  ["OpenAI's shape: the SDK keeps `error` whole", { error: { message: "m", type: "t" } }, false],
  ["LM Studio's bare string: nothing beside it", { error: "m" }, false],
  ["no `error` key: the SDK keeps the body whole", { message: "m" }, false],
  ["a null error: the SDK keeps the body whole", { error: null, message: "m" }, false],
  ["an array (Gemini's OpenAI endpoint)", [{ error: { code: 429 } }], false],
])("%s: nested %p", (_, body, nested) => {
  const text = JSON.stringify(body);
  expect(nestedErrorBody(text)).toBe(nested ? JSON.stringify({ error: body }) : undefined);
});

test("text that is no JSON (an HTML page) is left as it came", () => {
  expect(nestedErrorBody("<html>502 Bad Gateway</html>")).toBeUndefined();
});
