// The composition root: the only file that names concrete providers, tools and outputs.
import type { Effort } from "./kernel/ir.ts";
import { ProviderError, type Provider } from "./kernel/provider.ts";
import { isLoopback } from "./net/proxy.ts";
import type { Tool } from "./kernel/tool.ts";
import type { ProviderSettings, Settings } from "./config/resolve.ts";
import type { ShellChoice } from "./tools/shell.ts";
import { createBashTool } from "./tools/bash.ts";
import { createEditTool } from "./tools/edit.ts";
import { createGrepTool } from "./tools/grep.ts";
import { createReadFileTool } from "./tools/read-file.ts";
import { createWriteFileTool } from "./tools/write-file.ts";

/** Per-chunk silence after which a stream is treated as dead (SDK timeouts only cover headers). */
const IDLE_TIMEOUT_MS = 300_000;

/**
 * The provider for `settings` and `model`. Each adapter module (and its SDK) is imported only
 * here and only when its protocol is used, so start-up never parses the others (SPEC §1).
 */
export async function createProvider(settings: ProviderSettings, model: string, effort: Effort | undefined, fetchImpl: typeof fetch): Promise<Provider> {
  return failFastWhenRefusedLocally(await adapter(settings, model, effort, fetchImpl), settings.baseUrl);
}

async function adapter(settings: ProviderSettings, model: string, effort: Effort | undefined, fetchImpl: typeof fetch): Promise<Provider> {
  const common = {
    model,
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    apiKeyVar: settings.apiKeyVar,
    headers: settings.headers,
    maxTokens: settings.maxTokens,
    effort,
    fetch: fetchImpl,
    idleTimeoutMs: IDLE_TIMEOUT_MS,
  };
  switch (settings.protocol) {
    case "openai": {
      const { createOpenAIProvider } = await import("./providers/openai.ts");
      return createOpenAIProvider(common);
    }
    case "responses": {
      const { createResponsesProvider } = await import("./providers/responses.ts");
      return createResponsesProvider(common);
    }
    case "google": {
      const { createGoogleProvider } = await import("./providers/google.ts");
      return createGoogleProvider({ ...common, ...(settings.apiVersion !== undefined ? { apiVersion: settings.apiVersion } : {}) });
    }
    case "anthropic": {
      const { createAnthropicProvider } = await import("./providers/anthropic.ts");
      return createAnthropicProvider({ ...common, legacyThinking: settings.legacyThinking });
    }
  }
}

const REFUSED = /ECONNREFUSED|Unable to connect|connection refused/i;

/**
 * A refused connection to this machine means nothing listens there (Ollama not started, wrong
 * port): retrying for a minute only delays the answer, so it fails at once, saying what to check.
 */
function failFastWhenRefusedLocally(provider: Provider, baseUrl: string): Provider {
  if (!URL.canParse(baseUrl) || !isLoopback(new URL(baseUrl).hostname)) return provider;
  return {
    protocol: provider.protocol,
    model: provider.model,
    async *stream(request, signal) {
      try {
        yield* provider.stream(request, signal);
      } catch (e) {
        if (!(e instanceof ProviderError) || e.kind !== "network" || !REFUSED.test(e.message)) throw e;
        throw new ProviderError("network", `cannot connect to ${baseUrl}: connection refused (is the server running?)`, { final: true });
      }
    },
  };
}

/** The five built-in tools (SPEC §7), configured from settings and flags. */
export function createTools(settings: Settings, opts: { shell: ShellChoice; raw: boolean }): Tool[] {
  return [
    createBashTool({ shell: opts.shell, timeoutMs: settings.tools.bashTimeoutMs, filter: settings.tools.bashFilter, raw: opts.raw }),
    createReadFileTool(),
    createWriteFileTool(),
    createEditTool(),
    createGrepTool({ rg: settings.tools.rg }),
  ];
}
