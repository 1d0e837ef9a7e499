// Under `--base-url`, `/model` lists the endpoint's model as cli/NAME beside the other providers'
// PROVIDER/MODEL and says "switch with /model PROVIDER/MODEL": each listed name switches as it is
// written (x128), while any other name, a gateway's `anthropic/claude-sonnet-4.5` included, is a
// model of the endpoint.
import TOML from "@iarna/toml";
import { expect, test } from "bun:test";
import { guardedOf } from "../../src/config/guard.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { ConfigFlags } from "../../src/config/settings.ts";
import { unsendable } from "../../src/endpoint.ts";
import { endpointMove, usableModels } from "../../src/ui/model-choices.ts";

const CONFIG = '[provider.local]\nbase_url = "http://127.0.0.1:8000/v1"\nmodels = ["mock-a", "mock-b"]';
const BASE = { baseUrl: "http://127.0.0.1:9000/v1" };
const resolve = (flags: ConfigFlags) => resolveConfig([{ source: "/c.toml", data: TOML.parse(CONFIG) }], {}, flags).settings;
/** what `/model SPEC` resolves to, at the prompt of a run on `now` (the endpoint's model `endpointModel`), as runtime.ts asks */
const switched = (spec: string, now: { provider: string; model: string }, endpointModel = "mock-a") => {
  const s = resolve({ ...BASE, model: spec, session: { ...now, current: true }, switching: { endpointModel } });
  return `${s.provider.name}/${s.model}`;
};
/** the settings after `/model SPEC` from `s`, as runtime.ts switchModel resolves them */
const step = (s: ReturnType<typeof resolve>, spec: string) =>
  resolve({
    ...BASE,
    model: spec,
    session: { provider: s.provider.name, model: s.model, current: true },
    switching: { endpointModel: s.providers.find((p) => p.name === "cli")?.models[0] },
  });

test("every model /model lists under --base-url switches to itself, the one in use included", () => {
  const start = resolve({ ...BASE, model: "mock-a" });
  const listed = usableModels(start.providers);
  expect(listed).toEqual(["cli/mock-a", "local/mock-a", "local/mock-b"]);
  for (const spec of listed) expect(switched(spec, { provider: "cli", model: "mock-a" })).toBe(spec);
});

test("after a switch to another provider, the endpoint's model is still listed and switches back", () => {
  const away = step(resolve({ ...BASE, model: "mock-a" }), "local/mock-b");
  expect(usableModels(away.providers)).toContain("cli/mock-a");
  expect(switched("cli/mock-a", { provider: "local", model: "mock-b" })).toBe("cli/mock-a");
});

test("two switches away, the endpoint's model is still listed and switches back (x132)", () => {
  const twice = step(step(resolve({ ...BASE, model: "mock-a" }), "local/mock-b"), "local/mock-a");
  expect(`${twice.provider.name}/${twice.model}`).toBe("local/mock-a");
  expect(usableModels(twice.providers)).toEqual(["cli/mock-a", "local/mock-a", "local/mock-b"]);
  const back = step(twice, "cli/mock-a");
  expect(`${back.provider.name}/${back.model}`).toBe("cli/mock-a");
});

test("a fallback model another provider lists stays a model of the endpoint, as README says (x132)", () => {
  // next-model.ts resolves each fallback next to the model in use, current as /model's is, but no switch of /model's
  const s = resolve({
    ...BASE,
    model: "local/mock-b",
    modelLabel: '--fallback-model "local/mock-b"',
    session: { provider: "cli", model: "mock-a", current: true },
  });
  expect(`${s.provider.name} ${s.provider.baseUrl} ${s.model}`).toBe("cli http://127.0.0.1:9000/v1 local/mock-b");
});

test("/model's line says where the model now goes when it leaves or comes back to the endpoint", () => {
  const away = step(resolve({ ...BASE, model: "mock-a" }), "local/mock-b");
  expect(endpointMove(away.providers, "cli/mock-a", "local/mock-b")).toBe(" (sent to provider local at http://127.0.0.1:8000/v1, not the --base-url endpoint)");
  expect(endpointMove(away.providers, "local/mock-b", "cli/mock-a")).toBe(" (back at the --base-url endpoint, http://127.0.0.1:9000/v1)");
  expect(endpointMove(away.providers, "cli/mock-a", "cli/mock-b")).toBe("");
});

test.each([
  ["a bare name", "mock-c", "cli/mock-c"],
  ["a gateway's vendor/model name no provider lists", "anthropic/claude-sonnet-4.5", "cli/anthropic/claude-sonnet-4.5"],
  ["a provider's name with a model its list does not hold", "local/other", "cli/local/other"],
])("%s at the prompt is a model of the endpoint", (_what, spec, to) => {
  expect(switched(spec, { provider: "cli", model: "mock-a" })).toBe(to);
});

test("on the command line -m PROVIDER/MODEL is the endpoint's model as written", () => {
  expect(`${resolve({ ...BASE, model: "local/mock-b" }).provider.name}`).toBe("cli");
});

test("/model to a listed provider whose base_url is not approved yet is that provider's, refused with how to approve it, never a model of the endpoint (x133)", () => {
  // the user approved the file when it had no [provider.local]; the agent added it since
  const approved = Bun.TOML.parse('[provider.a]\nbase_url = "http://127.0.0.1:8000/v1"\nmodels = ["m"]') as Record<string, unknown>;
  const now = Bun.TOML.parse(`[provider.a]\nbase_url = "http://127.0.0.1:8000/v1"\nmodels = ["m"]\n${CONFIG}`) as Record<string, unknown>;
  const layer = { source: "/c.toml", data: now, guard: { approved: guardedOf(approved), role: "base" as const } };
  const flags = { ...BASE, model: "local/mock-b", session: { provider: "cli", model: "mock-a", current: true }, switching: { endpointModel: "mock-a" } };
  const s = resolveConfig([layer], {}, flags).settings;
  expect(`${s.provider.name}/${s.model} ${s.provider.baseUrl}`).toBe("local/mock-b http://127.0.0.1:8000/v1");
  expect(unsendable(s.provider)).toStartWith(
    '[provider.local] base_url = "http://127.0.0.1:8000/v1" in /c.toml is not approved yet, so hey sends nothing there',
  );
  expect(usableModels(s.providers)).not.toContain("local/mock-b"); // nor does /model offer it
});
