// What echo, printf and cat write, as the deny list reads a script the same command writes and runs
// (written-text.ts): exactly where dash and bash agree, else why not.
import { expect, test } from "bun:test";
import { echoText, printfText, stdinText } from "../../src/permission/written-text.ts";
import type { Word } from "../../src/permission/shell-model.ts";

const words = (...texts: string[]): Word[] => texts.map((text) => ({ text, raw: text, unknown: false, glob: false }));

test.each([
  [["r%s v2.txt", "m"], "rm v2.txt"],
  [["r\\155 v4.txt"], "rm v4.txt"],
  [["%s\\n", "echo a", "ls"], "echo a\nls\n"],
  [["--", "100%% %d %c\\t", "7", "xyz"], "100% 7 x\t"],
  [["a\\\\b"], "a\\b"],
  [["%s-", "a", "b", "c"], "a-b-c-"],
])("printf %j writes its text", (args, text) => {
  expect(printfText(words(...args))).toEqual({ text });
});

test.each([
  [["r%5s", "m"], "`%5`"],
  [["r\\x6d"], "`\\x`"],
  [["%b", "r\\155"], "`%b`"],
  [["%d", "010"], "`%d`"],
])("printf %j is known only at run time", (args, names) => {
  const w = printfText(words(...args));
  expect("why" in w && w.why).toContain(names);
});

test("echo: words joined, -n drops the newline; a backslash or -e is read differently by dash and bash", () => {
  expect(echoText(words("rm", "x"))).toEqual({ text: "rm x\n" });
  expect(echoText(words("-n", "rm"))).toEqual({ text: "rm" });
  expect(echoText(words("r\\m"))).toEqual({ why: "writes with `echo` of a backslash, which dash and bash write differently" });
  expect("why" in echoText(words("-e", "rm"))).toBe(true);
  expect("why" in echoText([{ text: "$x", raw: "$x", unknown: true, glob: false }])).toBe(true);
});

test("cat's heredoc: as written when quoted, or when nothing in it expands", () => {
  const heredoc = (raw: string, body: string, op = "<<") => [{ op, target: { text: "EOF", raw, unknown: false, glob: false }, body }];
  expect(stdinText(heredoc("'EOF'", "echo $HOME\n"))).toEqual({ text: "echo $HOME\n" });
  expect(stdinText(heredoc("EOF", "rm x\n"))).toEqual({ text: "rm x\n" });
  expect(stdinText(heredoc("EOF", "\trm x\n", "<<-"))).toEqual({ text: "rm x\n" });
  expect("why" in stdinText(heredoc("EOF", "$X x\n"))!).toBe(true);
  expect(stdinText([])).toBeUndefined();
});
