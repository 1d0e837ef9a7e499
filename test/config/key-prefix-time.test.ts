// x94 #2: the text before a key's base64 on its line (`1 1 1 … `) was turned into a regex of `\d+`
// and `[ \t]*` in a row, which tried every split of `111…1` between them: 345 characters took 4 s,
// 365 took a minute, and redaction runs on every tool result. Each input below, of a few KB, ran
// for hours then; it must now finish in a child process well within the test's generous limit.
import { expect, test } from "bun:test";
import { join } from "node:path";

const SECRET_SHAPES = join(import.meta.dir, "../../src/config/secret-shapes.ts");

/** A script that redacts each adversarial input and prints its name, then `done`. */
const script = `
import { generateKeyPairSync } from "node:crypto";
import { redactShapes } from ${JSON.stringify(SECRET_SHAPES)};
const lines = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString().split("\\n");
const body = lines[5];
const spaced = "1 ".repeat(2000);
const joined = "1".repeat(1999) + " ";
const inputs = {
  "middle lines": spaced + body + "\\n" + spaced + body + "\\n" + joined + body + "\\n",
  "last lines with the END line": joined + body + "\\n" + spaced + "-----END RSA PRIVATE KEY-----\\n",
  "first lines": spaced + lines[1] + "\\n" + joined + body + "\\n",
  "a BEGIN line": spaced + "-----BEGIN RSA PRIVATE KEY-----\\n" + joined + lines[1] + "\\n" + joined + body + "\\n",
};
for (const [name, text] of Object.entries(inputs)) {
  redactShapes(text);
  console.log(name);
}
console.log("done");
`;

test("redacting lines behind a long prefix of numbers and blanks takes time linear in the text", async () => {
  const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe", timeout: 50_000 });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(err).toBe("");
  expect(out.trim().split("\n")).toEqual(["middle lines", "last lines with the END line", "first lines", "a BEGIN line", "done"]);
  expect(code).toBe(0);
});
