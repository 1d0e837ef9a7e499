import { errorText } from "../kernel/errors.ts";
// One skill file in the Agent Skills format (SPEC §12, §24; agentskills.io): YAML frontmatter
// between `---` lines with `name` and `description` (optional `license`, `compatibility`,
// `metadata`, `allowed-tools`, kept but not enforced; Claude Code's `disable-model-invocation` and
// `user-invocable` honoured), then markdown instructions. Pure: the
// YAML parser is passed in (Bun's, by skills/load.ts). Validation never blocks: every
// problem is reported, and only a file that cannot be understood at all is left out.

export interface Skill {
  /** what `/skill:NAME` takes: the frontmatter's name when it is a valid one, else the folder's (or the file's) */
  name: string;
  /** the frontmatter's name when it is no valid name but a title (`name: Generating Commit Messages`, as Anthropic's early examples have it) */
  title?: string;
  /** other names `/skill:` takes: the folder's, a slug of the title (`generating-commit-messages`) */
  aliases?: string[];
  /** Claude Code's `disable-model-invocation: true`: the user runs it (a deploy, a release), the model is not offered it */
  disableModelInvocation?: boolean;
  /** Claude Code's `user-invocable: false`: background knowledge for the model, not offered by Tab (`/skill:` still runs it) */
  userInvocable?: false;
  description: string;
  /** the SKILL.md, or the `.md` file at the root of a skills folder */
  path: string;
  /** a project's skill: the project's real root, where its file must still lead each time it is read (skills/load.ts) */
  within?: string;
  /** the user's own skill under a permission list: the bytes loaded, checked against what was approved (trust/instructions.ts loadable); `/skill` sends these, not the file as it is by then */
  checked?: Uint8Array;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, unknown>;
  /** kept for skills written for other agents; hey does not restrict tools by it */
  allowedTools?: string | string[];
}

/**
 * `error`: the file cannot be used (broken YAML, an unclosed frontmatter, unreadable): left out
 * at start-up, and `/reload` keeps the previous state. `warning`: used anyway. `note`: nothing is
 * wrong — a later folder's skill won a name (skills/catalog.ts), as the README says it does — so
 * the user is told and the model is not asked to fix it. `message` is one line that starts with
 * the file (and line, when known).
 */
export interface SkillProblem {
  level: "error" | "warning" | "note";
  message: string;
  /**
   * the user's to read alone: hey refused a project's file that links out of it. Not the model's
   * mistake to fix, and the message names the link's target (your `~/.aws/credentials`), which
   * must not reach a request
   */
  userOnly?: boolean;
  /** the file's version when it was read (its mtime and size): an edit that leaves the problem is told from no edit */
  version?: string;
  /** a note that a skill replaces another of its name: the file of the one not used */
  replaced?: string;
}

/**
 * Whether the model is told of `p` (at start-up's note and at /reload's): not a `note` (a later
 * folder's skill won a name, on purpose: nothing to fix), nor what the user alone reads (`userOnly`).
 */
export const modelHears = (p: SkillProblem) => p.level !== "note" && !p.userOnly;

export type YamlParse = (text: string) => unknown;

/** Agent Skills limits. */
export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
/** A description taken from the body's first paragraph (no description in the frontmatter) is cut here. */
const FALLBACK_DESCRIPTION_MAX = 200;
const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The frontmatter block of `text` (already without BOM and CRs), or undefined when the file has none. */
export function splitFrontmatter(text: string): { yaml: string; body: string; closed: boolean } | undefined {
  const lines = text.split("\n");
  if (lines[0]?.trimEnd() !== "---") return undefined;
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end < 0) return { yaml: lines.slice(1).join("\n"), body: "", closed: false };
  return { yaml: lines.slice(1, end).join("\n"), body: lines.slice(end + 1).join("\n"), closed: true };
}

/**
 * The 1-based line of `yaml` where parsing breaks: one past the longest prefix of whole lines
 * that still parses. Bun's YAML errors carry no position, and an unterminated quote or a bad
 * indent is reported by the parser only at the end of the text.
 */
export function yamlErrorLine(yaml: string, parse: YamlParse): number {
  const lines = yaml.split("\n");
  let good = 0;
  for (let n = 1; n <= lines.length; n++) {
    try {
      parse(lines.slice(0, n).join("\n"));
      good = n;
    } catch {
      // keep looking: a later line may close what this one opened
    }
  }
  return Math.min(good + 1, lines.length);
}

/** A quoted value's shown part: the rest is `…`, the line is named anyway. */
const HINT_VALUE_MAX = 60;

/**
 * What to do about a broken frontmatter `line` whose plain value holds `: ` (`description: Use
 * when: …`, the commonest mistake: YAML reads a second key there): quote it, shown as it would be
 * written. "" for any other line.
 */
export function quoteHint(line: string): string {
  const m = /^([A-Za-z][\w-]*):[ \t]+(.*?)\s*$/.exec(line);
  const value = m?.[2];
  if (!m || !value || /^["'[{|>&*!#]/.test(value) || !/:(\s|$)/.test(value)) return "";
  const shown = value.length > HINT_VALUE_MAX ? `${value.slice(0, HINT_VALUE_MAX - 1)}…` : value;
  return `; the value of ${m[1]} holds ": ", so quote it: ${m[1]}: ${JSON.stringify(shown)}`;
}

/** Where a skill file sits: its folder name for a SKILL.md, undefined for a root `.md` file (then `stem`). */
export interface SkillPlace {
  path: string;
  folder?: string;
  stem: string;
}

/**
 * Reads one skill file's text. Returns the skill (unless it is left out) and every problem:
 * missing or empty name (the folder's name is used) or description (the body's first paragraph
 * is used), a name no command can take (skillName), a description over 1,024 characters, broken
 * YAML (with the file's line). A BOM and CRLF line ends are accepted.
 */
export function parseSkill(raw: string, at: SkillPlace, parse: YamlParse): { skill?: Skill; problems: SkillProblem[] } {
  const problems: SkillProblem[] = [];
  const warn = (message: string, line?: number) => problems.push({ level: "warning", message: `${at.path}${line ? `:${line}` : ""}: ${message}` });
  const fail = (message: string, line?: number) => {
    problems.push({ level: "error", message: `${at.path}${line ? `:${line}` : ""}: ${message}; left out` });
    return { problems };
  };
  const text = raw.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const split = splitFrontmatter(text);
  let data: Record<string, unknown> = {};
  let body = text;
  if (!split) warn("no frontmatter (a `---` line first, then name: and description:)");
  else {
    if (!split.closed) return fail("the frontmatter opened on line 1 is never closed with a `---` line", 1);
    body = split.body;
    let parsed: unknown;
    try {
      parsed = parse(split.yaml);
    } catch (e) {
      const reason = errorText(e).replace(/^YAML Parse error: /, "");
      const line = yamlErrorLine(split.yaml, parse);
      return fail(`broken YAML frontmatter: ${reason}${quoteHint(split.yaml.split("\n")[line - 1] ?? "")}`, line + 1);
    }
    if (parsed !== null && parsed !== undefined) {
      if (typeof parsed !== "object" || Array.isArray(parsed)) return fail("the frontmatter must be `key: value` lines", 2);
      data = parsed as Record<string, unknown>;
    }
  }

  const fallbackName = at.folder ?? at.stem;
  const named = skillName(text1(data.name), fallbackName);
  if (named.missing) warn(`no name in the frontmatter; using "${fallbackName}"`);
  if (named.invalid) warn(`name "${named.invalid}" is not 1–${NAME_MAX} lowercase letters, digits and single hyphens, nor is its folder's`);
  const name = named.name;
  let description = text1(data.description);
  if (description === undefined) {
    description = firstParagraph(body);
    if (description === undefined) {
      warn("no description in the frontmatter and no text to take one from; left out");
      return { problems };
    }
    warn("no description in the frontmatter; using the first paragraph");
  } else if (description.length > DESCRIPTION_MAX)
    warn(
      `description is ${description.length.toLocaleString("en-US")} characters, over ${DESCRIPTION_MAX.toLocaleString("en-US")}; the list shows the first ${DESCRIPTION_MAX.toLocaleString("en-US")}`,
    );

  const skill: Skill = { name, description, path: at.path };
  if (named.title) skill.title = named.title;
  if (named.aliases.length) skill.aliases = named.aliases;
  if (yes(data["disable-model-invocation"])) skill.disableModelInvocation = true;
  if (no(data["user-invocable"])) skill.userInvocable = false;
  const license = text1(data.license);
  const compatibility = text1(data.compatibility);
  const tools = data["allowed-tools"];
  if (license) skill.license = license;
  if (compatibility) skill.compatibility = compatibility;
  if (typeof data.metadata === "object" && data.metadata !== null && !Array.isArray(data.metadata)) skill.metadata = data.metadata as Record<string, unknown>;
  if (typeof tools === "string" || (Array.isArray(tools) && tools.every((t) => typeof t === "string"))) skill.allowedTools = tools;
  return { skill, problems };
}

/**
 * The name `/skill:` runs a skill by, from its frontmatter `name` and its folder (or file) name.
 * A valid name is the name, and the folder's a second one (a skill copied into a folder of another
 * name is tried by the folder's; the Agent Skills spec wants the two equal, but both run it, so
 * there is nothing to warn of on every run). A name
 * that is a title (`Generating Commit Messages`) cannot be typed after `/skill:`: the folder's
 * name is used, the title kept, and its slug taken too. `invalid`: the name when neither it nor
 * the folder nor the slug can be typed (the folder's is used anyway).
 */
export function skillName(given: string | undefined, fallback: string): { name: string; title?: string; aliases: string[]; missing?: true; invalid?: string } {
  const valid = (n: string) => n.length <= NAME_MAX && NAME_PATTERN.test(n);
  const typable = (n: string) => n !== "" && !/\s/.test(n);
  const others = (name: string, ...more: string[]) => [...new Set(more.filter((n) => n !== name && typable(n)))];
  if (given === undefined) return { name: fallback, aliases: [], missing: true };
  if (valid(given)) return { name: given, aliases: others(given, fallback) };
  const slug = slugOf(given);
  const name = valid(fallback) || !valid(slug) ? fallback : slug;
  const title = { title: given, aliases: others(name, valid(slug) ? slug : "") };
  return valid(name) ? { name, ...title } : { name, ...title, invalid: given };
}

/** `Generating Commit Messages` → `generating-commit-messages`: lowercase letters and digits between single hyphens, accents dropped. */
export function slugOf(text: string): string {
  const plain = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  return plain
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, NAME_MAX)
    .replace(/-+$/, "");
}

/** YAML's true (or the text "true", as a quoted value reads). */
const yes = (v: unknown) => v === true || (typeof v === "string" && v.trim().toLowerCase() === "true");
const no = (v: unknown) => v === false || (typeof v === "string" && v.trim().toLowerCase() === "false");

/** A non-empty trimmed string, or undefined (missing, empty, or not text). */
function text1(v: unknown): string | undefined {
  if (typeof v === "number") return String(v);
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/** The first paragraph of markdown prose (headings skipped), cut to a list line's worth. */
function firstParagraph(body: string): string | undefined {
  for (const block of body.split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((l) => l.trim() !== "" && !/^\s*#/.test(l) && !/^\s*```/.test(l));
    const text = lines.join(" ").replace(/\s+/g, " ").trim();
    if (text) return text.length > FALLBACK_DESCRIPTION_MAX ? text.slice(0, FALLBACK_DESCRIPTION_MAX - 1) + "…" : text;
  }
  return undefined;
}
