// PowerShell started with an encoded command and its stderr a pipe writes its errors, warnings and
// progress there as CLIXML, the serialization one PowerShell reads from another, whatever
// `-OutputFormat Text` says in Windows PowerShell 5.1 (pwsh honours it):
//   #< CLIXML
//   <Objs Version="1.1.0.1" xmlns="…"><Obj S="progress" RefId="0">…</Obj><S S="Error">Get-Content : Cannot find path 'C:\x' because it does not exist._x000D__x000A_</S>…
// Several times the tokens of the message for the model, and progress records it cannot use
// (PowerShell/PowerShell#5912; pywinrm and Ansible decode it too). This turns such a stream back
// into the text PowerShell would have written: the strings of the error, warning, verbose and debug
// streams, progress and other objects dropped, what a program wrote to the same stderr between
// them kept as it came. A stream that does not start with the marker passes unchanged. Pure.

const MARKER = "#< CLIXML";
/** What is held back waiting for an element's end: past this, what is held passes as it came. */
const MAX_HELD = 1 << 20;
/** What PowerShell's text form puts before a line of each stream; the error stream's strings are whole lines already. */
const PREFIX: Record<string, string> = { warning: "WARNING: ", verbose: "VERBOSE: ", debug: "DEBUG: " };

/** A decoder of one stderr stream, bytes in and bytes out: `take` each chunk, then `end`. */
export interface ClixmlDecoder {
  take(chunk: Uint8Array): Uint8Array;
  end(): Uint8Array;
}

export function clixmlDecoder(): ClixmlDecoder {
  let state: "start" | "plain" | "xml" = "start";
  let held = ""; // bytes as a binary string (one char a byte): the markup is ASCII in any code page
  const decode = (last: boolean): Uint8Array => {
    if (state === "start") {
      if (!last && !held.includes("\n") && held.length < 64) return new Uint8Array(0); // the first line decides
      state = held.startsWith(MARKER) ? "xml" : "plain";
    }
    const input = held;
    held = "";
    if (state === "plain") return toBytes(input);
    const { text, rest } = decodeText(input, last);
    held = rest;
    return toBytes(text);
  };
  return {
    take(chunk) {
      if (state === "plain") return chunk;
      held += binary(chunk);
      return decode(false);
    },
    end: () => decode(true),
  };
}

/** The text of `input` (after its marker line), and what of its end is an element not yet complete. */
function decodeText(input: string, last: boolean): { text: string; rest: string } {
  let text = "";
  let at = 0;
  const special = /#< CLIXML\r?\n|</g; // a document's marker line (one may start after another ends), or an element
  while (at < input.length) {
    special.lastIndex = at;
    const found = special.exec(input);
    const open = found ? found.index : input.length;
    if (open > at) text += input.slice(at, open);
    if (!found) return { text, rest: "" };
    if (found[0] !== "<") {
      at = open + found[0].length;
      continue;
    }
    const end = elementEnd(input, open);
    if (end === undefined) {
      if (last || input.length - open > MAX_HELD) return { text: text + input.slice(open), rest: "" };
      return { text, rest: input.slice(open) };
    }
    text += elementText(input.slice(open, end));
    at = end;
  }
  return { text, rest: "" };
}

/** Where the element starting at `open` ends (after its close), or undefined while it is not complete; a `<` that starts no element is one character. */
function elementEnd(input: string, open: number): number | undefined {
  const head = input.slice(open, open + 6);
  if (head.length < 6) return undefined; // the rest of the tag is still to come
  const after = (close: string) => {
    const at = input.indexOf(close, open);
    return at === -1 ? undefined : at + close.length;
  };
  if (head.startsWith("<Objs") || head === "</Objs") return after(">");
  if (head.startsWith('<S S="')) return after("</S>");
  if (!/^<Obj[\s>]/.test(head)) return open + 1;
  // an object (a progress record): it ends at the </Obj> that closes it, objects nesting
  const tags = /<Obj[\s>]|<\/Obj>/g;
  tags.lastIndex = open;
  let depth = 0;
  for (let m = tags.exec(input); m; m = tags.exec(input)) {
    depth += m[0] === "</Obj>" ? -1 : 1;
    if (depth === 0) return m.index + m[0].length;
  }
  return undefined;
}

/** What one complete element stands for in text: a stream's string, nothing for an object or the document's tags, a lone `<` as itself. */
function elementText(element: string): string {
  const string = /^<S S="([^"]*)">([\s\S]*)<\/S>$/.exec(element);
  if (!string) return element === "<" ? "<" : "";
  const stream = string[1]!.toLowerCase();
  const value = unescapeXml(string[2]!);
  if (stream === "error") return value;
  return `${PREFIX[stream] ?? ""}${value}${value.endsWith("\n") ? "" : "\r\n"}`;
}

/** XML's entities and the serializer's `_xHHHH_` (control characters, and `_` itself where it would read as one), non-ASCII as UTF-8 bytes. */
function unescapeXml(text: string): string {
  const char = (code: number) => (code < 0x80 ? String.fromCharCode(code) : binary(new TextEncoder().encode(String.fromCodePoint(code))));
  return text
    .replace(/&(lt|gt|amp|quot|apos|#x[0-9a-fA-F]+|#\d+);/g, (_, e: string) =>
      e[0] === "#" ? char(e[1] === "x" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1))) : { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" }[e]!,
    )
    .replace(/_x([0-9a-fA-F]{4})_/g, (_, hex: string) => char(Number.parseInt(hex, 16)));
}

function binary(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}

function toBytes(s: string): Uint8Array {
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes;
}

/** `stream` with CLIXML decoded (clixmlDecoder). */
export function clixmlText(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = clixmlDecoder();
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, out) => {
        const bytes = decoder.take(chunk);
        if (bytes.length > 0) out.enqueue(bytes);
      },
      flush: (out) => {
        const bytes = decoder.end();
        if (bytes.length > 0) out.enqueue(bytes);
      },
    }),
  );
}
