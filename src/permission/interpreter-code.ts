// Interpreters given their code on the command line or stdin (`python3 -c`, `node -e`, a heredoc),
// and what that code says (SPEC §8). Under a deny entry naming curl's `-X METHOD`, code that sends
// that method through its language's HTTP client does what the entry refuses: `python3 -c
// 'requests.post(…)'`, `node -e` calling fetch with `{ method: "POST" }`, `perl -MLWP… -e '$ua->post(…)'`,
// `ruby -e 'Net::HTTP.post_form(…)'`, `php -r` with CURLOPT_POST. What can honestly be read is the
// method's name in the code (a call `.post(`, a quoted `"POST"`, a bare `POST`) and, for POST, the
// calls that send one without naming it (urllib's urlopen given data); code that picks its method
// at run time (`method=m`, `requests.request(m, …)`, fetch given its options in a variable) or opens a raw socket cannot
// be read, and is refused as such. Only code that uses an HTTP client or a socket is judged: a GET
// (`requests.get(u)`, fetch given a URL alone) runs. A script file is not read. Pure.
import { entryMethod } from "./methods.ts";
import { type Pattern, program, toldValues } from "./match.ts";
import type { Segment } from "./shell-model.ts";
import { INTERPRETER } from "./stdin-code.ts";

/**
 * The code an interpreter is given on its command line or stdin: the word after `-c`, `-e`, `-E`,
 * `-r` (php), `-p`/`--eval`/`--print` (node) or a cluster ending in one (`perl -ne`), `-cCODE`,
 * `--eval=CODE`, `deno eval CODE`, and a heredoc or here-string. Not a script's name or its
 * arguments: `bun remove x` removes a package, `python3 tidy.py remove` runs a file hey cannot read.
 */
export function code(seg: Segment): string[] {
  const words = seg.words;
  const out = toldValues(seg).slice(seg.assigns.length + words.length - 1); // stdin: heredocs, here-strings
  for (let i = 1; i < words.length; i++) {
    const t = words[i]!.text;
    if (/^-[A-Za-z]*[ceEr]$|^-p$|^--(eval|print|command)$/.test(t) || (i === 1 && t === "eval")) out.push(words[i + 1]?.text ?? "");
    else if (/^-c./.test(t) || /^--eval=/.test(t)) out.push(t.replace(/^-c|^--eval=/, ""));
  }
  return out;
}

/**
 * An HTTP client or socket named in code: Python's requests, httpx, aiohttp, urllib, http.client,
 * pycurl, socket; Node's fetch, http/https/http2/net/tls modules, axios, got, undici…; Deno's
 * fetch and connect; Ruby's Net::HTTP, Faraday, HTTParty, RestClient, TCPSocket; Perl's LWP,
 * HTTP::Tiny, HTTP::Request, Mojo::UserAgent, IO::Socket; PHP's curl, file_get_contents with a
 * stream context, fsockopen.
 */
const CLIENT =
  /\b(requests|httpx|aiohttp|urllib[23]?|http\.client|httplib2?|pycurl|fetch|axios|got|superagent|undici|needle|XMLHttpRequest|Net::HTTP|HTTParty|Faraday|RestClient|LWP|HTTP::Tiny|HTTP::Request|Mojo::UserAgent|IO::Socket|curl_init|stream_context_create|fsockopen|socket|Socket|TCPSocket|Deno\.connect)\b|\b(https?|http2|net|tls)\.(request|get|connect|createConnection)\b|(require\(|from\s|import\s)\s*["'`]?(node:)?(https?|http2|net|tls)\b/;

/** Code that picks the method at run time, or writes bytes of its own to a connection: what it sends cannot be read. */
const UNREAD: [RegExp, string][] = [
  [/\bmethod\s*(=>|[:=])\s*[A-Za-z_$]/, "takes its method from a variable"],
  [/\.request\s*\(\s*[A-Za-z_$]/, "passes a request's method or options in a variable"],
  [/\bfetch\s*\([^,()]*,\s*[A-Za-z_$]/, "passes fetch its options in a variable"],
  [/CURLOPT_CUSTOMREQUEST\s*,\s*[$A-Za-z_]/, "takes its method from a variable"],
  [
    /\b(socket|Socket|TCPSocket|IO::Socket|fsockopen|Deno\.connect)\b|\b(net|tls)\.(connect|createConnection)\b|(require\(|from\s|import\s)\s*["'`]?(node:)?(net|tls)\b/,
    "opens a connection and writes its own request",
  ],
];

/**
 * Why a segment sends the method curl deny entry `p` names (`curl -X POST *`) from an interpreter's
 * code, or cannot be read for it; undefined: none. An entry naming a URL (`curl -X POST
 * https://api.example.com/*`) judges only code naming that host.
 */
export function sendsInCode(seg: Segment, p: Pattern): string | undefined {
  const command = p.words[0];
  if (!command || command.unknown || program(command.text) !== "curl" || p.redirects.length) return undefined;
  const { method, kept } = entryMethod(p.words.slice(1));
  const first = seg.words[0];
  if (!method || !first || first.unknown || first.glob || !INTERPRETER.test(program(first.text))) return undefined;
  const hosts = kept.flatMap((w) => /^[a-z]+:\/\/([^/*?]+)/i.exec(w.text)?.[1] ?? []);
  for (const text of code(seg)) {
    if (!CLIENT.test(text) || (hosts.length && !hosts.some((h) => text.includes(h)))) continue;
    const named =
      new RegExp(`(\\.|->|::)${method}(_[a-z]+)?\\b`, "i").exec(text) ??
      new RegExp(`["'\`]${method}["'\`]`, "i").exec(text) ??
      new RegExp(`\\b${method}\\b`).exec(text) ??
      (method === "POST" ? /\burlopen\s*\([^()]*,|\bRequest\s*\([^()]*\bdata\s*=|CURLOPT_POST/.exec(text) : null);
    if (named) return `its code sends a ${method} (\`${named[0]}\`)`;
    const unread = UNREAD.find(([re]) => re.test(text));
    if (unread) return `its code ${unread[1]} (\`${unread[0].exec(text)![0]}\`), so it may send a ${method}: hey cannot read which`;
  }
  return undefined;
}
