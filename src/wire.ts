// The composition root: the only file that names concrete providers, tools and outputs.
import type { Effort } from "./kernel/ir.ts";
import type { Provider } from "./kernel/provider.ts";
import type { ProviderSettings } from "./pure/config.ts";
import { ConfigError } from "./pure/config.ts";

/** Per-chunk silence after which a stream is treated as dead (SDK timeouts only cover headers). */
const IDLE_TIMEOUT_MS = 300_000;

/**
 * The provider for `settings` and `model`. Each adapter module (and its SDK) is imported only
 * here and only when its protocol is used, so start-up never parses the others (SPEC §1).
 */
export async function createProvider(settings: ProviderSettings, model: string, effort: Effort | undefined, fetchImpl: typeof fetch): Promise<Provider> {
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
    default:
      throw new ConfigError(`provider "${settings.name}": protocol "${settings.protocol}" is not supported by this build of hey`);
  }
}
