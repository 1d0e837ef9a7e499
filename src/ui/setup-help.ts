// Help for a new user (issue 14): what to do when the default local Ollama does not answer, or
// a local server lacks the model. Messages only, shown by the display after a failed request. Pure.
import { OLLAMA_MODEL, OLLAMA_URL } from "../config/ollama-host.ts";
import { saysServed } from "../config/missing-model.ts";
import type { ProviderSettings } from "../config/settings.ts";
import { CUT_OFF } from "../kernel/loop.ts";
import { isLoopback } from "../net/proxy.ts";
import { apiUrl } from "../providers/api-root.ts";
import { UNFINISHED } from "../providers/common.ts";
import { NOT_A_BYTE } from "../providers/stream-guard.ts";
import { affordableTokens, SUGGESTED_MAX_TOKENS } from "../providers/afford.ts";
import { creditHint, lengthHint } from "./length-hint.ts";

/**
 * What a new user with no configuration and no model server reads: the default, then three ways
 * to configure one. `userFile` is the user config file this run reads (XDG_CONFIG_HOME counts),
 * `~/`-shortened under `home`; `elsewhere`: the model servers other agents' files name (peers/found.ts setupPlaces);
 * `recorded`: an approvals record exists, so a provider added now waits for a yes (with none, the first run the model answers takes the file as it is).
 */
export function setupText(
  userFile = "~/.config/hey/config.toml",
  home?: string,
  ollama: { baseUrl: string; urlVar?: string } = { baseUrl: OLLAMA_URL },
  env: Record<string, string | undefined> = {},
  elsewhere?: string,
  recorded = false,
): string {
  const windows = /^[A-Za-z]:[\\/]/.test(userFile); // the config is a Windows path: hey runs there
  const shown = home && userFile.startsWith(`${home}/`) ? `~/${userFile.slice(home.length + 1)}` : userFile;
  const keys = "OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or DEEPSEEK_API_KEY";
  return [
    ollama.urlVar
      ? `With no configuration hey talks to the Ollama at ${ollama.urlVar} (${ollama.baseUrl}) with the model ${OLLAMA_MODEL}: start it there with \`ollama serve\` and \`ollama pull ${OLLAMA_MODEL}\`,`
      : `With no configuration hey talks to a local Ollama (${ollama.baseUrl}) with the model ${OLLAMA_MODEL}: start it with \`ollama serve\` and \`ollama pull ${OLLAMA_MODEL}\`,`,
    // `export` is no command in PowerShell or cmd
    windows
      ? `or set a key for a hosted model: ${keys} (PowerShell: $env:OPENAI_API_KEY = "…"; setx OPENAI_API_KEY "…" keeps it for new terminals),`
      : `or set a key for a hosted model: export ${keys},`,
    // a table header needs a line of its own: the snippet is the lines to paste, as the gateway tables below are
    `or add a provider to ${shown}${recorded ? APPROVE : ""}:`,
    "  [provider.NAME]",
    '  base_url = "https://.../v1"',
    // the comment on a line of its own, under 80 columns: wrapped after the key, its second row pasted would be no TOML
    "  # api_key names the variable that holds its key; none for a local server",
    '  api_key = "${YOUR_KEY_VAR}"',
    '  models = ["MODEL"]',
    `or use any endpoint once: hey --base-url ${ollama.baseUrl} -m MODEL`,
    ...gatewayKeys(env, shown, recorded),
    ...(elsewhere ? [elsewhere] : []),
  ].join("\n");
}

/** With an approvals record, a provider written now waits for a yes, which only the interactive prompt asks (`hey -p` refuses it). */
const APPROVE = ", then start hey at a terminal and answer y to approve it";

/** Services whose key variable other agents read but hey has no built-in provider for: with one set, the provider table that uses it. */
const GATEWAYS: { keyVar: string; name: string; baseUrl: string; model: string; maxTokens?: number }[] = [
  // OpenRouter counts a request's max_tokens, the model's whole output limit when none is sent, against the credit left (providers/afford.ts)
  {
    keyVar: "OPENROUTER_API_KEY",
    name: "openrouter",
    baseUrl: "https://openrouter.ai/api/v1",
    model: "anthropic/claude-sonnet-4.5",
    maxTokens: SUGGESTED_MAX_TOKENS,
  },
  { keyVar: "GROQ_API_KEY", name: "groq", baseUrl: "https://api.groq.com/openai/v1", model: "openai/gpt-oss-120b" },
  { keyVar: "XAI_API_KEY", name: "xai", baseUrl: "https://api.x.ai/v1", model: "grok-4" },
  { keyVar: "MISTRAL_API_KEY", name: "mistral", baseUrl: "https://api.mistral.ai/v1", model: "devstral-medium-latest" },
  { keyVar: "MOONSHOT_API_KEY", name: "moonshot", baseUrl: "https://api.moonshot.ai/v1", model: "kimi-k2-0905-preview" },
  { keyVar: "TOGETHER_API_KEY", name: "together", baseUrl: "https://api.together.xyz/v1", model: "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8" },
  { keyVar: "FIREWORKS_API_KEY", name: "fireworks", baseUrl: "https://api.fireworks.ai/inference/v1", model: "accounts/fireworks/models/kimi-k2-instruct" },
];

/** For each key of GATEWAYS set in `env`: that hey does not read it, and the table of `file` that would. */
function gatewayKeys(env: Record<string, string | undefined>, file: string, recorded: boolean): string[] {
  return GATEWAYS.filter((g) => env[g.keyVar]).flatMap((g) => [
    `${g.keyVar} is set, but hey has no built-in provider that reads it: to use it, add to ${file}${recorded ? APPROVE : ""}:`,
    `  [provider.${g.name}]`,
    `  base_url = "${g.baseUrl}"`,
    `  api_key = "\${${g.keyVar}}"`,
    `  models = ["${g.model}"]`,
    ...(g.maxTokens ? [`  max_tokens = ${g.maxTokens}`] : []),
  ]);
}

/** A failed request as the `error` event tells it: `max_tokens` of a `length` error (kernel/output.ts). */
export interface Failure {
  kind: string;
  message: string;
  max_tokens?: number;
}

/**
 * Help after a failed request, when there is some: for an answer cut at the output token limit,
 * the max_tokens to raise (length-hint.ts); (issue 14) the setup hint when the default
 * local Ollama does not answer; a 404 whose words name no model (a router's "404 page not found"):
 * the path of base_url, most often a missing /v1; when a local server says the model is not there
 * (a 404, told by the status and words in the message as a documented last resort), `ollama pull
 * MODEL` for Ollama and the server's model list for any other. `where` is the
 * user config file and the home directory, for the hint to name the file this run reads (a
 * Windows path also says how a key variable is set there).
 */
export function setupHint(
  provider: ProviderSettings,
  model: string,
  error: Failure,
  where: { userFile?: string; home?: string; env?: Record<string, string | undefined>; elsewhere?: string | undefined; recorded?: boolean } = {},
): string | undefined {
  if (error.kind === "length" && error.message === CUT_OFF) return lengthHint(provider, where.userFile, error.max_tokens);
  const afford = error.kind === "bad_request" ? affordableTokens(error.message) : undefined;
  if (afford !== undefined) return creditHint(provider, afford, where.userFile);
  // an Ollama that took the request and said nothing (or closed it unanswered) is running: loading the model, most likely, not missing
  if (provider.preset && provider.name === "ollama" && error.kind === "network" && error.message.includes(NOT_A_BYTE))
    return `the Ollama at ${provider.baseUrl} took the request and sent nothing back: it is running, most likely still loading ${model} (\`ollama ps\` shows what it has loaded) or reading a long prompt; a larger [retry] idle_timeout_ms waits longer for it`;
  if (provider.preset && provider.name === "ollama" && error.kind === "network" && error.message.includes(UNFINISHED))
    // after the endpoint the give-up line names
    return `the Ollama at ${provider.baseUrl} took the request and closed it unanswered: it is running, but failed on ${model} (the Ollama server's log says why)`;
  if (provider.preset && provider.name === "ollama" && error.kind === "network")
    return setupText(where.userFile, where.home, provider, where.env, where.elsewhere, where.recorded);
  const notFound = error.kind === "bad_request" && /\(404\)/.test(error.message);
  // a 404 that names no model is the path's when base_url lacks its /v1, or the words are a router's ("404 page not found": Ollama, Go servers)
  const said = error.message.replace(/ — check the model name and base URL.*$/s, ""); // the server's words, without hey's own advice
  if (notFound && !/\bmodel/i.test(said) && URL.canParse(provider.baseUrl) && (!versioned(provider) || ROUTER_404.test(error.message)))
    return pathHint(provider);
  if (notFound && isLoopbackUrl(provider.baseUrl)) {
    // Ollama's own port: a loopback endpoint there is taken to be Ollama (vLLM, llama.cpp, LM Studio pull no models)
    if (provider.name === "ollama" || new URL(provider.baseUrl).port === OLLAMA_PORT)
      return `the local server has no model "${model}": with Ollama, run \`ollama pull ${model}\` (or pick another model with /model or -m)`;
    if (!saysServed(error.message))
      return `the local server has no model "${model}": the names it serves are listed at ${apiUrl(provider, "models")} (pick one with /model or -m)`;
  }
  return undefined;
}

const OLLAMA_PORT = "11434";

/** A 404 page of a router or web server, which no API's missing-model error reads like. */
const ROUTER_404 = /404 page not found|cannot (post|get) \/|no route|<html/i;

/** Whether base_url's path has its API version (/v1, /v1beta…), or the protocol's SDK adds it (Anthropic, Gemini). */
function versioned(provider: ProviderSettings): boolean {
  return !(provider.protocol === "openai" || provider.protocol === "responses") || /\/v\d[^/]*(\/|$)/.test(new URL(provider.baseUrl).pathname);
}

/** The hint for a 404 that is no missing model: base_url's path is wrong, most often a missing /v1 (OpenAI-compatible servers serve under it). */
function pathHint(provider: ProviderSettings): string {
  const base = provider.baseUrl.replace(/\/+$/, "");
  // Ollama's native API hangs from /api, its OpenAI-compatible one from /v1 beside it: /api/v1 is neither
  if (!versioned(provider) && base.endsWith("/api"))
    return `the server has no such path (the model name is not the problem): /api is Ollama's own API, its OpenAI-compatible one is at /v1 — set base_url to ${base.slice(0, -"/api".length)}/v1`;
  if (!versioned(provider)) return `the server has no such path (the model name is not the problem): base_url probably lacks /v1 — set it to ${base}/v1`;
  return `the server has no such path (the model name is not the problem): check the path of base_url (${base}); the API's paths are appended to it`;
}
const isLoopbackUrl = (url: string) => URL.canParse(url) && isLoopback(new URL(url).hostname);
