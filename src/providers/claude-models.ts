// What hey knows of a Claude model from its name, so its first request is one the API takes: Claude
// 4.5 and earlier refuse adaptive thinking (budget thinking instead; platform.claude.com "rejected
// configurations by model"), and some take fewer output tokens than hey's default 32000 plus a
// thinking budget — Opus 4 and 4.1 32000, Claude 3.5 8192 ("max_tokens: 32000 > 8192, which is the
// maximum allowed number of output tokens for claude-3-5-haiku-20241022"). Without this each run
// at `-t max` on claude-opus-4-1 took three requests (adaptive refused, 36096 refused, then sent).
// A name it does not know is learned from the refusals as before (anthropic-adapt.ts). Pure.

/** The version of a Claude model name (`claude-opus-4-1-20250805`: 4.1, `claude-3-5-haiku-latest`: 3.5, `claude-sonnet-4-20250514`: 4), undefined for another name. */
export function claudeVersion(model: string): { version: number; family: string } | undefined {
  const m = /claude-(opus|sonnet|haiku)-(\d+)(?:[-.](\d)(?!\d))?/.exec(model) ?? /claude-(\d+)(?:[-.](\d)(?!\d))?-(opus|sonnet|haiku)/.exec(model);
  if (!m) return undefined;
  const [family, major, minor] = /^\d/.test(m[1]!) ? [m[3]!, m[1]!, m[2]] : [m[1]!, m[2]!, m[3]];
  return { version: Number(major) + Number(minor ?? 0) / 10, family };
}

/** The thinking mode and output limit to start `model` with: legacy (budget) thinking up to 4.5; the documented limit where it is below hey's default. */
export function claudeStart(model: string): { legacyThinking?: true; outputLimit?: number } {
  const known = claudeVersion(model);
  if (!known) return {};
  const limit = known.family === "opus" && known.version >= 4 && known.version < 4.5 ? 32000 : known.version === 3.5 ? 8192 : undefined;
  return { ...(known.version <= 4.5 ? { legacyThinking: true as const } : {}), ...(limit ? { outputLimit: limit } : {}) };
}
