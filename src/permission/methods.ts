// HTTP methods as a deny entry reads them (SPEC §8). curl(1) `-X` "only changes the actual word used
// in the HTTP request": curl sends `-X post` as `post`, and HTTP's method token is case-sensitive,
// but the user who denied `curl -X POST *` denied the write, which a server that upper-cases the
// method (many do) performs all the same. So the method word of curl (`-X`, `--request`), wget
// (`--method`), HTTPie and xh (`http post URL`) and `gh api` (`-X`, `--method`) is compared
// case-blind: the segment is also matched with it upper-cased. And `gh api` sends what `curl -X
// METHOD` does, to GitHub's API: gh-api(1) "The default HTTP request method is GET normally and POST
// if any parameters were added" (`-f`/`--raw-field`, `-F`/`--field`); cli/cli's api command does
// the same for `--input` ("The file to use as body for the HTTP request"). Pure.
import { program } from "./match.ts";
import type { Pattern } from "./match.ts";
import type { Segment, Word } from "./shell-model.ts";
import { ghReadsGraphql } from "./spares.ts";

const known = (w: Word | undefined): w is Word => !!w && !w.unknown && !w.glob;
const isOption = (w: Word) => !w.unknown && /^-./.test(w.text) && w.text !== "--";
const upper = (w: Word, text: string): Word => ({ ...w, text, raw: text });

/** The method of a curl entry's words (`-X POST`, `-XPOST`, `--request=POST`), upper-cased, and the other words; method "" when none. */
export function entryMethod(rest: Word[]): { method: string; spelled: string; kept: Word[] } {
  let spelled = "";
  const kept: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    const m = /^(?:-X|--request(?:=|$))(.*)$/.exec(rest[i]!.text);
    if (!m || rest[i]!.unknown) kept.push(rest[i]!);
    else if (m[1]) spelled = m[1];
    else spelled = rest[++i]?.text ?? "";
  }
  const method = spelled.toUpperCase();
  return /^[A-Z]+$/.test(method) ? { method, spelled, kept } : { method: "", spelled, kept };
}

/** Where each program takes its method: the index of the word holding it, and where in that word it starts. */
function methodWords(seg: Segment): [index: number, from: number][] {
  const words = seg.words;
  const first = words[0];
  if (!known(first)) return [];
  const name = program(first.text);
  const out: [number, number][] = [];
  const gh = name === "gh" && words[1]?.text === "api";
  if (name === "curl" || name === "wget" || gh) {
    for (let i = gh ? 2 : 1; i < words.length; i++) {
      const t = words[i]!.text;
      if (!known(words[i]) || t === "--") break;
      // curl(1) -X/--request (a cluster `-sXpost` too); wget(1) --method=HTTP-Method; gh api -X/--method; abbreviations of the long ones
      const long = name === "wget" ? /^--me(t(h(od?)?)?)?(=|$)/.exec(t) : /^--(r(e(q(u(e(st?)?)?)?)?)?|method)(=|$)/.exec(t);
      if (long?.[long.length - 1] === "=") out.push([i, long[0].length]);
      else if (long) out.push([i + 1, 0]);
      else if (name !== "wget" && /^-[^-]*X./.test(t)) out.push([i, t.indexOf("X") + 1]);
      else if (name !== "wget" && /^-[^-]*X$/.test(t)) out.push([i + 1, 0]);
    }
    return out;
  }
  // http(1): `http [METHOD] URL [REQUEST_ITEM …]`; a method is letters, followed by the URL
  if (/^(https?|xh|xhs)$/.test(name)) {
    const items = words.map((w, i) => [w, i] as const).filter(([w], i) => i > 0 && !isOption(w));
    if (items.length > 1 && known(items[0]![0]) && /^[A-Za-z]+$/.test(items[0]![0].text)) out.push([items[0]![1], 0]);
  }
  return out;
}

/** The segment with its HTTP method words upper-cased (`curl -X post` as `curl -X POST`), or none when they are already. */
export function upperMethods(seg: Segment): Segment[] {
  const words = [...seg.words];
  let changed = false;
  for (const [i, from] of methodWords(seg)) {
    const w = words[i];
    if (!known(w)) continue;
    const text = w.text.slice(0, from) + w.text.slice(from).toUpperCase();
    if (text !== w.text) [words[i], changed] = [upper(w, text), true];
  }
  return changed ? [{ ...seg, words }] : [];
}

/**
 * Whether `gh api` may stand in for a curl entry whose words besides the method are `kept`: they
 * name no URL (`*` or options), or one on GitHub. `bash: curl -X POST https://api.example.com/*`
 * says nothing of GitHub.
 */
function reachesGitHub(kept: Word[]): boolean {
  return kept.every((w) => isOption(w) || (w.glob && w.raw === "*") || /github/i.test(w.text));
}

/** `gh api` sending `method` (under an entry `curl -X METHOD` whose other words are `kept`): the deny patterns' texts and what they do. */
export function ghSending(method: string, kept: Word[]): [string, string][] {
  if (!reachesGitHub(kept)) return [];
  return [
    [`gh api -X ${method} *`, `gh api -X ${method} sends ${method}`],
    [`gh api --method ${method} *`, `gh api --method ${method} sends ${method}`],
  ];
}

/**
 * Under a deny entry naming curl's `-X POST`, `gh api` given no method but fields or a body
 * (`-f`, `-F`, `--raw-field`, `--field`, `--input`, or one of gh api's short options `-i` before
 * `f`/`F` in a cluster), which gh then sends as a POST. undefined: not that.
 */
export function ghImpliedPost(seg: Segment, p: Pattern): string | undefined {
  const command = p.words[0];
  if (!command || command.unknown || program(command.text) !== "curl") return undefined;
  const entry = entryMethod(p.words.slice(1));
  if (entry.method !== "POST" || !reachesGitHub(entry.kept)) return undefined;
  const words = seg.words;
  if (!known(words[0]) || program(words[0].text) !== "gh" || words[1]?.text !== "api") return undefined;
  const end = words.findIndex((w, i) => i > 1 && w.text === "--" && !w.unknown);
  const args = words.slice(2, end < 0 ? undefined : end).filter(known);
  if (args.some((w) => /^-i*X|^--method(=|$)/.test(w.text))) return undefined; // a method given: the equivalents judge it
  if (ghReadsGraphql(seg)) return undefined; // a GraphQL query, "a read-only fetch"
  const body = args.find((w) => /^-i*[fF]|^--(raw-field|field|input)(=|$)/.test(w.text));
  return body ? `gh api sends a POST when given \`${body.raw}\` and no method` : undefined;
}

/** PowerShell's web cmdlets and their aliases (`curl` and `wget` are Invoke-WebRequest in Windows PowerShell 5.1). */
const WEB_CMDLETS = new Set(["invoke-webrequest", "iwr", "invoke-restmethod", "irm"]);

/**
 * A deny entry on PowerShell's web cmdlets naming a method (`Invoke-WebRequest -Method Post *`,
 * `-Method:Post`, `-Me POST`) as curl's words (`-X POST` and the entry's other words), so that it
 * refuses curl, wget, HTTPie and gh api sending it as `curl -X POST *` does; undefined: not one.
 */
export function webCmdletAsCurl(name: string, rest: Word[]): Word[] | undefined {
  if (!WEB_CMDLETS.has(name)) return undefined;
  const out: Word[] = [];
  let method = "";
  for (let i = 0; i < rest.length; i++) {
    const m = /^-me(?:t(?:h(?:od?)?)?)?(?::(.*))?$/i.exec(rest[i]!.text);
    if (!m || rest[i]!.unknown) out.push(rest[i]!);
    else method = m[1] ?? rest[++i]?.text ?? "";
  }
  if (!/^[A-Za-z]+$/.test(method)) return undefined;
  const word = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });
  return [word("-X"), word(method.toUpperCase()), ...out];
}
