// The vet of the agent's writes to hey's config files (config/write-check.ts, x99 findings 5 and 6):
// a config file named another way (a hard link) is vetted as the file; only the errors a write adds
// refuse it (an edit that fixes one of two mistakes is made, an error a write moves down a line is
// not new); a loader that throws on the new text refuses it, a lookup of the path that throws is a note.
import { afterAll, expect, test } from "bun:test";
import { linkSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configWriteVet } from "../../src/config/write-check.ts";
import { callId, realTarget } from "../../src/fs/real-target.ts";
import { tempDir } from "../helpers/e2e.ts";

const tmp = tempDir("hey-vet-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const config = join(root, "hey", "config.toml");
mkdirSync(join(root, "hey"));
mkdirSync(join(root, "project"));
const names = { real: realTarget, id: callId, fold: false };
/** a loader that finds one error on each line saying `bad`, as FILE:LINE: … */
const check = (w: { path: string; text?: string }) => ({
  errors: (w.text ?? readFileSync(w.path, "utf8")).split("\n").flatMap((line, i) => (line.startsWith("bad") ? [`${w.path}:${i + 1}: ${line} is wrong`] : [])),
  warnings: [],
});
const vet = configWriteVet([config], check, names);

test("a write through a hard link to the config that would not load is refused, naming the config", () => {
  writeFileSync(config, "ok\n");
  const other = join(root, "project", "settings.toml");
  linkSync(config, other);
  // before: not vetted (only the name and the resolved link were compared), and the broken text reached the config
  expect(vet(other, "ok\nbad key\n")).toEqual({ refused: expect.stringContaining(`${config}:2: bad key is wrong`) });
  expect(vet(join(root, "project", "elsewhere.toml"), "bad key\n")).toBeUndefined();
});

test("only the errors a write adds refuse it: fixing one of two mistakes is made, an error moved down a line is not new", () => {
  writeFileSync(config, "bad one\nok\nbad two\n");
  // before: refused, because `bad two` was still there
  expect(vet(config, "fixed\nok\nbad two\n")).toBeUndefined();
  expect(vet(config, "top\nbad one\nok\nbad two\n")).toBeUndefined();
  const added = vet(config, "bad one\nok\nbad two\nbad three\n");
  expect(added).toEqual({ refused: expect.stringContaining("bad three is wrong") });
  expect((added as { refused: string }).refused).not.toContain("bad one");
  expect(vet(config, "bad one\nbad one\nok\nbad two\n")).toEqual({ refused: expect.stringContaining("bad one is wrong") }); // the same mistake once more
});

// x101 #8: a loader that throws on the very text being written let it through with a note
test("a loader that throws on the text being written refuses it; a lookup of the path that throws is a note on the write, not an exception out of the tool", () => {
  writeFileSync(config, "ok\n");
  const throwsOnNew = configWriteVet(
    [config],
    (w) => {
      if (w.text !== undefined) throw new TypeError("loader bug");
      return { errors: [], warnings: [] };
    },
    names,
  );
  expect(throwsOnNew(config, "ok\n")).toEqual({ refused: expect.stringContaining("hey's loader failed on this content: loader bug") });
  const throwsBefore = configWriteVet(
    [config],
    (w) => {
      if (w.text === undefined) throw new TypeError("loader bug");
      return check(w);
    },
    names,
  );
  expect(throwsBefore(config, "fixed\n")).toBeUndefined(); // the write may be the fix
  expect(throwsBefore(config, "bad\n")).toEqual({ refused: expect.stringContaining(`${config}:1: bad is wrong`) });
  const lookupFails = configWriteVet([config], check, {
    ...names,
    real: () => {
      throw new Error("did not answer");
    },
  });
  expect(lookupFails(config, "bad\n")).toEqual({ note: expect.stringContaining("did not answer") });
});
