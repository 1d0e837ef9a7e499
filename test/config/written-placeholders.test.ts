// A placeholder hey showed the model is never written back into a file in place of the value it
// stands for (`[redacted]` for a secret hey knows, `[secret: NAME]` for one found by its shape); a
// file that holds such text itself (a document about redaction) is written and edited as usual.
import { describe, expect, test } from "bun:test";
import { createRedaction, redactingTool, redactText } from "../../src/config/secrets.ts";
import { userMessage, type Message } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";

const KEY = "gwkey_plainvalue_0001";
const ENV = `MYGW_KEY=${KEY}\nPORT=3000\n`;
const DOC = "Secrets are shown as [redacted] in the output.\n";
const ctx = { signal: new AbortController().signal, cwd: "/p" };

/** A run whose files are `files` (paths as the model names them), its read_file echoing them and its writers writing them. */
function run(files: Record<string, string>, resumed?: Message[]) {
  const conversation: Message[] = [];
  const r = createRedaction(
    () => [KEY],
    () => true,
    { fileText: (path, cwd) => (cwd === "/p" ? files[path] : undefined), history: () => conversation },
    resumed,
  );
  const tool = (name: string, run: Tool["run"]): Tool => redactingTool({ name, description: "", parameters: {}, run }, r);
  return {
    read: (path: string) => tool("read_file", async () => ({ output: files[path]! })).run({ path }, ctx),
    write: (path: string, content: string) =>
      tool("write_file", async () => {
        files[path] = content;
        return { output: `wrote ${path}` };
      }).run({ path, content }, ctx),
    edit: (path: string, old_string: string, new_string: string) =>
      tool("edit", async () => {
        files[path] = files[path]!.replace(old_string, new_string);
        return { output: `edited ${path}` };
      }).run({ path, old_string, new_string }, ctx),
    files,
    r,
    conversation,
  };
}

describe("[redacted]: a secret hey knows, shown hidden", () => {
  test("read, then rewritten whole with the placeholder: refused, the key stays; the refusal says to edit the lines around it", async () => {
    const hey = run({ ".env.local": ENV });
    expect((await hey.read(".env.local")).output).toBe("MYGW_KEY=[redacted]\nPORT=3000\n");
    const refused = await hey.write(".env.local", "MYGW_KEY=[redacted]\nPORT=4000\n");
    expect(refused.isError).toBe(true);
    expect(refused.output).toStartWith(
      "write_file: content holds [redacted], which stands for a value hey hid from you; writing it would put that text in the file",
    );
    expect(refused.output).toContain("Change only the lines you mean to with edit");
    expect(hey.files[".env.local"]).toBe(ENV);
    // what the refusal says works: the PORT line alone
    expect(await hey.edit(".env.local", "PORT=3000", "PORT=4000")).toEqual({ output: "edited .env.local" });
    expect(hey.files[".env.local"]).toBe(`MYGW_KEY=${KEY}\nPORT=4000\n`);
  });

  test("an edit whose old_string or new_string holds the placeholder the file does not hold: refused", async () => {
    const hey = run({ ".env.local": ENV });
    await hey.read(".env.local");
    const refused = await hey.edit(".env.local", "MYGW_KEY=[redacted]\nPORT=3000", "MYGW_KEY=[redacted]\nPORT=4000");
    expect(refused.isError).toBe(true);
    expect(refused.output).toStartWith(
      "edit: old_string or new_string holds [redacted], which stands for a value hey hid from you; the file holds the real value there.",
    );
    expect((await hey.edit(".env.local", "PORT=3000", "PORT=4000\nGW=[redacted]")).isError).toBe(true);
    expect(hey.files[".env.local"]).toBe(ENV);
  });

  test("a new file written with it: refused, it would hold the placeholder, not the value", async () => {
    const hey = run({ ".env.local": ENV });
    await hey.read(".env.local");
    const refused = await hey.write(".env.production", "MYGW_KEY=[redacted]\n");
    expect(refused.output).toContain("the new file would hold that text, not the value");
    expect(hey.files[".env.production"]).toBeUndefined();
  });

  test("a document that holds [redacted] as text: written and edited as any file, even after a secret was shown hidden", async () => {
    const hey = run({ ".env.local": ENV, "docs/secrets.md": DOC });
    await hey.read(".env.local");
    expect(await hey.write("docs/secrets.md", `${DOC}Keys never reach the model.\n`)).toEqual({ output: "wrote docs/secrets.md" });
    expect(await hey.edit("docs/secrets.md", "as [redacted] in the output", "as [redacted] everywhere")).toEqual({ output: "edited docs/secrets.md" });
  });

  test("no secret shown hidden this run: [redacted] is ordinary text, in any file", async () => {
    const hey = run({ "notes.md": "notes\n" });
    expect(await hey.write("new.md", "the log said [redacted]\n")).toEqual({ output: "wrote new.md" });
    expect(await hey.edit("notes.md", "notes", "notes: [redacted]")).toEqual({ output: "edited notes.md" });
  });

  test("hidden in other text the model read (an instruction file, a `!` command's output): counts as shown", () => {
    const hey = run({ ".env.local": ENV });
    expect(redactText(`key ${KEY}`, hey.r)).toBe("key [redacted]");
    expect(hey.r.shown.has("[redacted]")).toBe(true);
  });

  test("an @file the user's message brought, its key hidden: counts as shown", async () => {
    const hey = run({ ".env.local": ENV });
    hey.conversation.push(userMessage("what port?\n\n```.env.local\nMYGW_KEY=[redacted]\nPORT=3000\n```"));
    expect((await hey.write(".env.local", "MYGW_KEY=[redacted]\nPORT=4000\n")).isError).toBe(true);
  });

  test("a document read that holds [redacted] as text shows no hidden secret: a new document may hold it too", async () => {
    const hey = run({ "README.md": DOC });
    expect((await hey.read("README.md")).output).toBe(DOC);
    expect(await hey.write("docs/new.md", "shown as [redacted]\n")).toEqual({ output: "wrote docs/new.md" });
  });

  test("a resumed session whose history shows it (a key typed earlier, saved hidden): counts as shown from the start", async () => {
    const hey = run({ ".env.local": "PORT=3000\n" }, [userMessage("my gateway key is [redacted], put it in .env.local")]);
    expect((await hey.write(".env.local", "GW=[redacted]\nPORT=3000\n")).isError).toBe(true);
    expect(hey.files[".env.local"]).toBe("PORT=3000\n");
  });
});

test("[secret: NAME] found by shape: refused the same, after a resume too; the document about it is not", async () => {
  const token = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5";
  const hey = run({ ".env": `GITHUB_TOKEN=${token}\n`, "doc.md": "hidden as [secret: GITHUB_TOKEN]\n" });
  expect((await hey.read(".env")).output).toBe("GITHUB_TOKEN=[secret: GITHUB_TOKEN]\n");
  expect((await hey.write(".env", "GITHUB_TOKEN=[secret: GITHUB_TOKEN]\nDEBUG=1\n")).isError).toBe(true);
  expect(await hey.edit("doc.md", "hidden as", "shown as")).toEqual({ output: "edited doc.md" });
  const resumed = run({ ".env": `GITHUB_TOKEN=${token}\n` }, [
    { id: "r1", role: "tool", toolCallId: "c1", toolName: "read_file", content: [{ type: "text", text: "GITHUB_TOKEN=[secret: GITHUB_TOKEN]" }] },
  ]);
  expect((await resumed.edit(".env", "GITHUB_TOKEN=[secret: GITHUB_TOKEN]", "GITHUB_TOKEN=[secret: GITHUB_TOKEN]\nDEBUG=1")).isError).toBe(true);
});
