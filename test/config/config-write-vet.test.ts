// The vet of the agent's writes to hey's config files (config/write-check.ts, x99 findings 5 and 6):
// a config file named another way (a hard link) is vetted as the file; only the errors a write adds
// refuse it (an edit that fixes one of two mistakes is made, an error a write moves down a line is
// not new); a check that fails is a note, never an exception out of the tool.
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

test("a check that throws is a note on the write, not an exception out of the tool", () => {
  const broken = configWriteVet(
    [config],
    () => {
      throw new TypeError("loader bug");
    },
    names,
  );
  expect(broken(config, "ok\n")).toEqual({ note: expect.stringContaining("loader bug") });
});
