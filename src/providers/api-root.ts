// Where each protocol's API hangs from a base URL as the user wrote it: the SDKs append their own
// version paths (Anthropic's /v1, Gemini's /v1beta), so the URL of a path beside the ones they call
// (the model list) is built the way they build theirs. Pure.
import type { Protocol } from "../kernel/ir.ts";

/** What hey uses unless `[provider.X] api_version` or the base URL says otherwise (the SDK's own default is v1). */
export const DEFAULT_API_VERSION = "v1beta";

/**
 * The SDK's base URL and API version for a base URL as the user wrote it (SPEC §2). The SDK
 * appends the version itself, so a trailing `/v1`, `/v1beta`, `/v1alpha`, `/v1beta1`… is cut off
 * and becomes the version, unless `apiVersion` is given.
 */
export function splitBaseUrl(baseUrl: string, apiVersion?: string): { baseUrl: string; apiVersion: string } {
  const trimmed = baseUrl.replace(/\/+$/, "");
  const m = /^(.*)\/(v\d+(?:(?:alpha|beta)\d*)?)$/.exec(trimmed);
  return { baseUrl: m ? m[1]! : trimmed, apiVersion: apiVersion || m?.[2] || DEFAULT_API_VERSION };
}

/**
 * The base URL the SDK wants. Users write the documented API root with its version
 * (`https://api.anthropic.com/v1`) or without it; the SDK appends `/v1/messages` itself, so one
 * trailing `/v1` and any trailing slashes are removed.
 */
export function anthropicBaseUrl(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/v1$/, "").replace(/\/+$/, "");
}

/** The URL of `path` (`models`, `chat/completions`…) under the API root of `baseUrl`, as the protocol's SDK builds it. */
export function apiUrl(endpoint: { protocol: Protocol; baseUrl: string; apiVersion?: string }, path: string): string {
  const base = endpoint.baseUrl.replace(/\/+$/, "");
  if (endpoint.protocol === "anthropic") return `${anthropicBaseUrl(base)}/v1/${path}`;
  if (endpoint.protocol === "google") {
    const split = splitBaseUrl(base, endpoint.apiVersion);
    return `${split.baseUrl}/${split.apiVersion}/${path}`;
  }
  return `${base}/${path}`;
}
