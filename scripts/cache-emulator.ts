// What a session's requests would cost under the providers' prompt caches, emulated from the
// request bodies alone (for `bun run bench`; issue 23). Pure. Tokens are body bytes / 4.
//
// - OpenAI-style automatic caching (OpenAI, DeepSeek, Gemini implicit, most gateways): a request
//   reads from the cache the longest prefix it shares with an earlier request, counted in
//   128-token steps once it reaches 1,024 tokens; nothing is billed extra for writing.
//   (platform.openai.com/docs/guides/prompt-caching)
// - Anthropic `cache_control`: the prompt is tools → system → messages, in content blocks. A
//   request reads the longest prefix ending at a block where an earlier request wrote a cache
//   entry, found by looking back up to 20 blocks from each of its own breakpoints; it then writes
//   an entry at each breakpoint past that point, billed 1.25×; reads are billed 0.1×. Prefixes under
//   1,024 tokens are never cached. A change of `tool_choice` invalidates the message blocks (not
//   tools or system): it is part of every message block's key. (docs.anthropic.com/en/docs/build-with-claude/prompt-caching)

export interface CacheCount {
  /** tokens sent */
  sent: number;
  /** read from the cache (billed 0.1×) */
  read: number;
  /** written to the cache (billed 1.25×; OpenAI-style caches bill no write) */
  write: number;
}

const MIN_CACHED = 1024;
const OPENAI_STEP = 128;
const LOOKBACK_BLOCKS = 20;
const tokens = (text: string) => Math.ceil(Buffer.byteLength(text) / 4);

/** Billed-equivalent tokens: 1× uncached, 0.1× read, 1.25× write. */
export function billed(c: CacheCount): number {
  return c.sent - c.read - c.write + 0.1 * c.read + 1.25 * c.write;
}

export function total(counts: readonly CacheCount[]): CacheCount {
  return counts.reduce((a, c) => ({ sent: a.sent + c.sent, read: a.read + c.read, write: a.write + c.write }), { sent: 0, read: 0, write: 0 });
}

/** The text the model reads of an OpenAI chat body, in the order it is rendered: tools, then messages. */
export function openaiPrompt(body: { tools?: unknown; messages: unknown[] }): string {
  return JSON.stringify(body.tools ?? []) + body.messages.map((m) => JSON.stringify(m)).join("");
}

/** Per request: the cached prefix under OpenAI-style automatic caching. `prompts` as openaiPrompt renders them. */
export function openaiCache(prompts: readonly string[]): CacheCount[] {
  return prompts.map((p, i) => {
    let shared = 0;
    for (let k = 0; k < i; k++) shared = Math.max(shared, commonPrefix(p, prompts[k]!));
    const prefix = tokens(p.slice(0, shared));
    const read = prefix < MIN_CACHED ? 0 : MIN_CACHED + Math.floor((prefix - MIN_CACHED) / OPENAI_STEP) * OPENAI_STEP;
    return { sent: tokens(p), read, write: 0 };
  });
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** One content block of an Anthropic prompt: its text without the marker, and whether it carries `cache_control`. */
export interface Block {
  text: string;
  breakpoint: boolean;
  /** what else the cache entry is keyed on, uncounted: the request's tool_choice, for message blocks */
  setting?: string;
}

/** The blocks of an Anthropic Messages body in prompt order: each tool, the system blocks, each message's content blocks. */
export function anthropicBlocks(body: {
  tools?: object[];
  system?: string | object[];
  messages: { role: string; content: string | object[] }[];
  tool_choice?: unknown;
}): Block[] {
  const block = (b: object): Block => {
    const { cache_control, ...rest } = b as { cache_control?: unknown };
    return { text: JSON.stringify(rest), breakpoint: cache_control !== undefined };
  };
  const out: Block[] = (body.tools ?? []).map(block);
  if (typeof body.system === "string") out.push({ text: body.system, breakpoint: false });
  else for (const b of body.system ?? []) out.push(block(b));
  const setting = body.tool_choice === undefined ? {} : { setting: JSON.stringify(body.tool_choice) };
  for (const m of body.messages) {
    if (typeof m.content === "string") out.push({ text: m.role + m.content, breakpoint: false, ...setting });
    else for (const [i, b] of m.content.entries()) out.push({ ...block(b), ...(i === 0 ? { text: m.role + block(b).text } : {}), ...setting });
  }
  return out;
}

/** Per request: what the Anthropic cache reads and writes, for requests made in this order within the cache's lifetime. */
export function anthropicCache(requests: readonly Block[][]): CacheCount[] {
  const cache = new Set<string>();
  return requests.map((blocks) => {
    const keys: string[] = [];
    const upTo: number[] = []; // tokens of blocks 0..i
    let key = "";
    let sum = 0;
    for (const b of blocks) {
      key = String(Bun.hash(key + "\u0000" + b.text + (b.setting === undefined ? "" : "\u0000" + b.setting)));
      sum += tokens(b.text);
      keys.push(key);
      upTo.push(sum);
    }
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let hit = -1;
    for (const b of breakpoints) for (let j = b; j >= Math.max(0, b - LOOKBACK_BLOCKS); j--) if (cache.has(keys[j]!)) hit = Math.max(hit, j);
    const read = hit >= 0 ? upTo[hit]! : 0;
    const last = breakpoints.at(-1) ?? -1;
    let write = 0;
    if (last > hit && upTo[last]! >= MIN_CACHED) write = upTo[last]! - read;
    for (const b of breakpoints) if (upTo[b]! >= MIN_CACHED) cache.add(keys[b]!);
    return { sent: sum, read, write };
  });
}
