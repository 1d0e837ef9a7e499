// A record append that fails must cut back only what it wrote itself (x127): a size it could not
// measure cuts nothing, and lines another hey appended meanwhile are left whole.
import { afterEach, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import { type AppendCalls, appendWhole as append } from "../../src/fs/append-whole.ts";
import { tempDir } from "../helpers/e2e.ts";

/** What the next failing call does in place of the real one; undefined: the real one. */
const faults: { fstat?: (fd: number) => fs.Stats; write?: (fd: number, text: string) => number } = {};
const fail = (code: string) => Object.assign(new Error(`${code}: injected`), { code });
/** node:fs's calls, but where `faults` says otherwise. */
const calls: AppendCalls = {
  ...fs,
  fstatSync: ((fd: number) => (faults.fstat ? faults.fstat(fd) : fs.fstatSync(fd))) as AppendCalls["fstatSync"],
  writeSync: ((fd: number, data: Uint8Array, offset?: number | null) =>
    faults.write ? faults.write(fd, Buffer.from(data.subarray(offset ?? 0)).toString()) : fs.writeSync(fd, data, offset ?? 0)) as AppendCalls["writeSync"],
};
const appendWhole = (file: string, text: string, mode: number) => append(file, text, mode, calls);

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  faults.fstat = faults.write = undefined;
  for (const d of dirs.splice(0)) d.remove();
});
function record(): string {
  const dir = tempDir("hey-append-whole-");
  dirs.push(dir);
  const file = join(dir.path, "undo.jsonl");
  fs.writeFileSync(file, '{"turn":1}\n{"turn":2}\n');
  return file;
}

test("a size that cannot be measured (fstat fails with EIO) leaves the earlier turns' lines where they are", () => {
  const file = record();
  faults.fstat = () => {
    throw fail("EIO");
  };
  expect(appendWhole(file, '{"turn":3}\n', 0o600)?.error).toMatchObject({ code: "EIO" });
  expect(fs.readFileSync(file, "utf8")).toBe('{"turn":1}\n{"turn":2}\n');
});

test("another hey's line appended between the measure and a write that fails (ENOSPC) is not cut", () => {
  const file = record();
  faults.write = () => {
    fs.appendFileSync(file, '{"other":"hey B line"}\n');
    throw fail("ENOSPC");
  };
  expect(appendWhole(file, '{"turn":3}\n', 0o600)?.error).toMatchObject({ code: "ENOSPC" });
  expect(fs.readFileSync(file, "utf8")).toBe('{"turn":1}\n{"turn":2}\n{"other":"hey B line"}\n');
});

test("what a write that fails half-way (a full disk) left of its own line is cut off, so a retry writes it once", () => {
  const file = record();
  let calls = 0;
  faults.write = (fd, text) => {
    if (calls++ > 0) throw fail("ENOSPC");
    return fs.writeSync(fd, text.slice(0, 4));
  };
  const failed = appendWhole(file, '{"turn":3}\n', 0o600);
  expect(failed?.error).toMatchObject({ code: "ENOSPC" });
  expect(failed?.torn).toBe(false);
  expect(fs.readFileSync(file, "utf8")).toBe('{"turn":1}\n{"turn":2}\n');
  faults.write = undefined;
  expect(appendWhole(file, '{"turn":3}\n', 0o600)).toBeUndefined();
  expect(fs.readFileSync(file, "utf8")).toBe('{"turn":1}\n{"turn":2}\n{"turn":3}\n');
});

/** Whether `file` holds a NUL byte: a hole where a cut grew the file back past its real end. */
const holed = (file: string) => fs.readFileSync(file).includes(0);

test.each([
  ["writes whole", undefined],
  ["fails before a byte is written (ENOSPC)", 0],
  ["fails half-way (a full disk)", 4],
])("a record another process truncates between the measure and a write that %s is never grown back with NUL bytes", (_, fails) => {
  const file = record();
  let calls = 0;
  faults.write = (fd, text) => {
    if (calls++ === 0) fs.truncateSync(file, 0); // another process empties the record just after it was measured
    if (fails === undefined) return fs.writeSync(fd, text);
    if (calls > 1 || fails === 0) throw fail("ENOSPC");
    return fs.writeSync(fd, text.slice(0, fails));
  };
  const failed = appendWhole(file, '{"turn":3}\n', 0o600);
  expect(holed(file)).toBe(false);
  if (fails === undefined) expect(fs.readFileSync(file, "utf8")).toBe('{"turn":3}\n');
  else {
    expect(fs.statSync(file).size).toBe(fails);
    // what is left of its line may be there: a retry starts a line of its own
    expect(failed?.torn).toBe(fails > 0);
  }
});
