// A file dragged onto the terminal (a screenshot) arrives as a bracketed paste of its path, quoted
// or escaped as the terminal writes it; Claude Code and Codex attach it. hey writes it as the
// mention Tab writes (`@"/tmp/Screenshot 1.png"`), which the message then attaches. Pure: the
// caller says whether a path is a file.
import { writeMention } from "../prompt/mentions.ts";
import type { Key } from "./keys.ts";
import type { EditorState } from "./line-editor.ts";

/**
 * The kinds a dropped path is attached as: images and PDFs, which the model sees as they are. A
 * dropped text or source file stays its path, as in Claude Code: the user may mean the path itself
 * (in a command), and the agent reads the file when it needs to.
 */
const ATTACHED = /\.(png|jpe?g|gif|webp|pdf)$/i;

/**
 * The one path `text` is as a terminal pastes a dropped file — `'/tmp/a b.png'` (GNOME Terminal,
 * a `'` in the name as `'\''`), `"/tmp/a b.png"`, `/tmp/a\ b.png` (iTerm2, Terminal.app),
 * `file:///tmp/a%20b.png` — or undefined for any other text. Only an absolute or `~/` path counts:
 * a pasted word is no dropped file.
 */
export function droppedPath(text: string): string | undefined {
  const t = text.trim(); // some terminals add a space after the path
  if (t === "" || /[\r\n]/.test(t)) return undefined;
  let path: string | undefined;
  const single = /^'((?:[^']|'\\'')+)'$/.exec(t);
  const double = /^"((?:\\.|[^"\\])+)"$/.exec(t);
  if (single) path = single[1]!.replaceAll("'\\''", "'");
  else if (double) path = double[1]!.replace(/\\(.)/g, "$1");
  else if (t.startsWith("file://")) path = fileUrlPath(t);
  else if (!/(?<!\\)\s/.test(t)) path = t.replace(/\\(.)/g, "$1"); // `\ ` and `\(`: escaped as a shell reads them
  return path !== undefined && (path.startsWith("/") || path.startsWith("~/")) ? path : undefined;
}

/** The path of a `file://` URL (`file:///tmp/a%20b.png`), undefined when it is no local file's. */
function fileUrlPath(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.host === "" || parsed.host === "localhost" ? decodeURIComponent(parsed.pathname) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a paste of `text` puts in the line when it is a dropped image or PDF that `isFile` finds:
 * its mention, with a space before it unless `before` (the line up to the cursor) ends in one, and
 * one after unless `after` starts with one, so that it is a mention and the user types on. Undefined:
 * the paste goes in as it is.
 */
export function droppedMention(text: string, before: string, after: string, isFile: (path: string) => boolean): string | undefined {
  const path = droppedPath(text);
  if (path === undefined || !ATTACHED.test(path) || !isFile(path)) return undefined;
  const lead = before === "" || /\s$/.test(before) ? "" : " ";
  const tail = /^\s/.test(after) ? "" : " ";
  return lead + writeMention(path) + tail;
}

/** `key` as the line takes it: a paste of a dropped image or PDF (droppedMention) as its mention, which attaches it; `isFile` unset: as it is. */
export function droppedKey(key: Key, editor: EditorState, isFile?: (path: string) => boolean): Key {
  if (key.type !== "paste" || !isFile) return key;
  const mention = droppedMention(key.text, editor.text.slice(0, editor.cursor), editor.text.slice(editor.cursor), isFile);
  return mention === undefined ? key : { type: "paste", text: mention };
}
