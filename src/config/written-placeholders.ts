// A placeholder hey showed the model (`[redacted]`, `[secret: NAME]`) written back into a file
// would replace the value it stands for: the user's key is gone. Which write_file and edit calls
// would do so, and what the model is told instead. Pure: the caller reads the file.
import { TOOL } from "../kernel/tool-names.ts";
import { placeholdersIn } from "./secret-shapes.ts";

/** What redact puts in place of a secret hey knows (secrets.ts REDACTED, written here too: that file imports this one). */
const KNOWN = "[redacted]";

/** The placeholders in `text` that hey has shown the model: `[secret: NAME]`s and `[redacted]`. */
function shownIn(text: string, shown: (placeholder: string) => boolean): string[] {
  return [...placeholdersIn(text), ...(text.includes(KNOWN) ? [KNOWN] : [])].filter(shown);
}

const count = (text: string, part: string) => text.split(part).length - 1;

/**
 * Why a write_file or edit call (`args` as the model gave them) must not run, or undefined. It is
 * refused when it would put a placeholder hey showed into the file where the file does not hold
 * that text itself: write_file whose content holds it more often than the file does now (a new
 * file holds none), edit whose old_string or new_string holds one the file does not hold (old_string
 * cannot match there: the file has the value). A file that holds `[redacted]` as text (a document
 * about redaction) is written and edited as any other. `fileText`: the file's text now (asked only when
 * a shown placeholder is written); undefined when there is no such file, "" when it cannot be read.
 */
export function placeholderRefusal(
  tool: string,
  args: Record<string, unknown>,
  shown: (placeholder: string) => boolean,
  fileText: () => string | undefined,
): string | undefined {
  const text = (name: string) => (typeof args[name] === "string" ? (args[name] as string) : "");
  const written =
    tool === TOOL.writeFile
      ? shownIn(text("content"), shown)
      : tool === TOOL.edit
        ? [...shownIn(text("old_string"), shown), ...shownIn(text("new_string"), shown)]
        : [];
  if (written.length === 0) return undefined; // the file is read only now
  const now = fileText();
  const file = now ?? "";
  if (tool === TOOL.writeFile) {
    const content = text("content");
    const put = written.filter((p) => count(content, p) > count(file, p));
    if (put.length === 0) return undefined;
    const what = `write_file: content holds ${put.join(", ")}, which stands for a value hey hid from you`;
    if (now === undefined)
      return `${what}; the new file would hold that text, not the value. Write it without the value (leave the line for the user to fill in, and say so), or copy the file with bash (cp) and change the copy with edit; not written`;
    return `${what}; writing it would put that text in the file in place of the real value. Change only the lines you mean to with edit (old_string and new_string from those lines, without the placeholder): the rest of the file, its values too, stays as it is; not written`;
  }
  const put = [...new Set(written)].filter((p) => count(file, p) === 0);
  if (put.length === 0) return undefined;
  return `edit: old_string or new_string holds ${put.join(", ")}, which stands for a value hey hid from you; the file holds the real value there. Take old_string and new_string from the lines you mean to change, leaving the line with the placeholder out; not changed`;
}
