// x93 #4: an allow entry whose last word ends in `$` ("bash: grep -c ^$", valid before the exact
// mark) stopped hey with a configuration error, and the first fix it offered changed the regex.
// It keeps its old meaning — the `$` is the word's, the entry a prefix — and is warned about once,
// by the line, with both spellings; `hey doctor` names it.
import TOML from "@iarna/toml";
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import { permissionLines } from "../../src/doctor/permission-lines.ts";
import { permissionCheck } from "../../src/permission-check.ts";

const PROVIDER = '[provider.m]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m1"]\n';

test("a glued `$` starts hey with a warning naming the line and both spellings, and the entry keeps its meaning", () => {
  const text = `${PROVIDER}[permission]\nallow = ["read_file", "bash: grep -c ^$", "bash: npm test$"]\n`;
  const { settings } = resolveConfig([{ source: "/u/config.toml", data: TOML.parse(text), text }], {}, {});
  expect(settings.permission.entryNotes).toEqual([
    `/u/config.toml:5: [permission] allow "bash: grep -c ^$" ends in \`^$\`, whose \`$\` is the word's (it allows what starts with \`grep -c ^$\`): for the exact mark, a word of its own, write "bash: grep -c ^ $"; to keep this meaning without this warning, quote the word: "bash: grep -c '^$'"`,
    `/u/config.toml:5: [permission] allow "bash: npm test$" ends in \`test$\`, whose \`$\` is the word's (it allows what starts with \`npm test$\`): for the exact mark, a word of its own, write "bash: npm test $"; to keep this meaning without this warning, quote the word: "bash: npm 'test$'"`,
  ]);
  expect(
    permissionLines(settings.permission, "/h").some((l) => l.startsWith('permission: /u/config.toml:5: [permission] allow "bash: grep -c ^$" ends in')),
  ).toBe(true);
  const check = permissionCheck(settings.permission, "sh", { cwd: "/p", home: "/h", controls: [] });
  expect(check("bash", { command: "grep -c ^$ notes.txt" })).toBeUndefined();
  expect(check("bash", { command: "grep -c x notes.txt" })).toContain("matches no allow entry");
  // the spellings offered end the warning
  const fixed = `${PROVIDER}[permission]\nallow = ["bash: grep -c '^$'", "bash: npm test $"]\n`;
  expect(resolveConfig([{ source: "/u/config.toml", data: TOML.parse(fixed), text: fixed }], {}, {}).settings.permission.entryNotes).toBeUndefined();
});
