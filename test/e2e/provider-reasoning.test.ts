// Encrypted reasoning belongs to the provider that issued it (SPEC §5.6): two providers serving one
// model under one protocol (OpenAI and Azure, two keys) are two accounts, and OpenAI answers 400 "The
// encrypted content … could not be verified" to an item issued to the other. A loop cut short on one
// (`hey -m gpt/gpt-x`), continued on the other (`hey -c -m azure/gpt-x`): its reasoning stays behind.
// dist/hey against a loopback Responses server.
import { expect, setDefaultTimeout, test } from "bun:test";
import { realpathSync } from "node:fs";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { fixture, jsonReply } from "../helpers/replay-server.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const server = fileReplayServer();
const home = fileTempDir("hey-provider-reasoning-");

type Item = { type?: string; role?: string; id?: string; encrypted_content?: string };
const inputOf = (i: number) => (server.requests[i]!.body as { input: Item[] }).input;
const stopHere = jsonReply(400, { error: { message: "stopped by the test", type: "invalid_request_error", param: null, code: null } });

test("a tool loop cut short on provider gpt, continued with -c -m azure/gpt-x: gpt's encrypted reasoning goes to gpt only", async () => {
  writeUserConfig(
    home.path,
    `[default]\nprovider = "gpt"\nmodel = "gpt-x"\n` +
      `[provider.gpt]\nprotocol = "responses"\nbase_url = "${server.url}/v1"\napi_key = "k-gpt"\nmodels = ["gpt-x"]\n` +
      `[provider.azure]\nprotocol = "responses"\nbase_url = "${server.url}/v1"\napi_key = "k-azure"\nmodels = ["gpt-x"]\n`,
  );
  const hey = (args: string[]) => runHey(args, { cwd: realpathSync(home.path), env: { HOME: home.path } });

  // gpt reasons and calls a tool; the request after its result fails: the session ends in the loop, its reasoning last
  server.enqueue(fixture("openai-responses/reasoning-summary-function-call"), stopHere);
  expect((await hey(["-m", "gpt/gpt-x", "-p", "add 12 and 7"])).code).toBe(1);
  const reasoning = inputOf(1).find((i) => i.type === "reasoning");
  expect(reasoning?.encrypted_content).toStartWith("gAAAA");

  // the same provider is sent it again
  server.enqueue(stopHere);
  let asked = server.requests.length;
  expect((await hey(["-c", "-m", "gpt/gpt-x", "-p", "continue"])).code).toBe(1);
  expect(inputOf(asked).find((i) => i.type === "reasoning")?.id).toBe(reasoning!.id!);

  // the other provider is not: no reasoning item, and the call without the fc_ id that ties it to one
  server.enqueue(fixture("openai-responses/text-after-function-call"));
  asked = server.requests.length;
  const run = await hey(["-c", "-m", "azure/gpt-x", "-p", "continue"]);
  expect(run.stderr).not.toContain("rejected");
  expect(run.code).toBe(0);
  expect(server.requests[asked]!.headers.authorization).toBe("Bearer k-azure");
  const sent = inputOf(asked);
  expect(sent.filter((i) => i.type === "reasoning")).toEqual([]);
  expect(sent.find((i) => i.type === "function_call")).not.toHaveProperty("id");
  expect(server.violations).toEqual([]);
});
