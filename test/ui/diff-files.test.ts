// What /diff does with each changed file where the repository's own config names a filter or a
// textconv driver (ui/diff-files.ts): only the files that select one are held back, and a driver
// the repository defines as the user's own config does is the user's.
import { expect, test } from "bun:test";
import { driversOf, fileView, parseAttributes, parseChanged, PATHSPEC_BYTES, pathspecCalls, sortChanged, usersOwnKeys } from "../../src/ui/diff-files.ts";

const LFS = ["filter.lfs.clean", "filter.lfs.process", "filter.lfs.smudge"];
const drivers = driversOf([...LFS, "diff.evil.textconv", "diff.tool.command", "gpg.program"]);

test("the drivers the repository's programs belong to: its filters and textconv drivers (a diff command never runs at /diff: --no-ext-diff)", () => {
  expect(drivers).toEqual([
    { kind: "filter", name: "lfs" },
    { kind: "diff", name: "evil" },
  ]);
  expect(driversOf(["filter.a.b.clean"])).toEqual([{ kind: "filter", name: "a.b" }]);
});

test.each([
  ["no driver", { filter: "unspecified", diff: "unspecified" }, "diff"],
  ["a filter of the user's own", { filter: "mine", diff: "unspecified" }, "diff"],
  ["the repository's filter", { filter: "lfs", diff: "lfs" }, { filter: "lfs" }],
  ["the repository's textconv driver", { filter: "unspecified", diff: "evil" }, { textconv: "evil" }],
  ["both: the filter wins, the file cannot be shown", { filter: "lfs", diff: "evil" }, { filter: "lfs" }],
  ["`diff` set, no driver named", { filter: "unset", diff: "set" }, "diff"],
  ["git gave no attributes: every driver", undefined, { filter: "lfs" }],
] as const)("a file with %s", (_, attributes, view) => {
  expect(fileView(attributes, drivers)).toEqual(view);
});

test("git gave no attributes and the repository names only textconv drivers: the file as git's own bytes", () => {
  expect(fileView(undefined, driversOf(["diff.a.textconv", "diff.b.textconv"]))).toEqual({ textconv: "a, b" });
});

test("git's -z listings read back: the changed files, their attributes, and the files sorted", () => {
  const changed = parseChanged("M\0notes.md\0A\0assets/logo.bin\0D\0odd\tname.dat\0");
  expect(changed).toEqual([
    { status: "M", path: "notes.md" },
    { status: "A", path: "assets/logo.bin" },
    { status: "D", path: "odd\tname.dat" },
  ]);
  const attributes = parseAttributes(
    "notes.md\0filter\0unspecified\0notes.md\0diff\0unspecified\0assets/logo.bin\0filter\0lfs\0assets/logo.bin\0diff\0lfs\0odd\tname.dat\0filter\0unspecified\0odd\tname.dat\0diff\0evil\0",
  );
  expect(attributes.get("assets/logo.bin")).toEqual({ filter: "lfs", diff: "lfs" });
  expect(sortChanged(changed, attributes, drivers)).toEqual({
    diff: ["notes.md"],
    bytes: [{ status: "D", path: "odd\tname.dat", driver: "evil" }],
    named: [{ status: "A", path: "assets/logo.bin", driver: "lfs" }],
  });
});

/** `git config --list --show-scope --includes -z`'s records. */
const listing = (...records: [string, string, string?][]) =>
  records.map(([scope, name, value]) => `${scope}\0${name}${value === undefined ? "" : `\n${value}`}\0`).join("");

test.each([
  [
    "set alike by `git lfs install` and `git lfs install --local`: the user's",
    listing(
      ["global", "filter.lfs.clean", "git-lfs clean -- %f"],
      ["global", "filter.lfs.process", "git-lfs filter-process"],
      ["local", "filter.lfs.clean", "git-lfs clean -- %f"],
      ["local", "filter.lfs.process", "git-lfs filter-process"],
    ),
    ["filter.lfs.clean", "filter.lfs.process"],
    [
      ["filter.lfs.clean", "git-lfs clean -- %f"],
      ["filter.lfs.process", "git-lfs filter-process"],
    ],
  ],
  [
    "one key the repository's alone: the whole filter is the repository's",
    listing(
      ["global", "filter.lfs.clean", "git-lfs clean -- %f"],
      ["local", "filter.lfs.clean", "git-lfs clean -- %f"],
      ["local", "filter.lfs.process", "sh evil.sh"],
    ),
    ["filter.lfs.clean", "filter.lfs.process"],
    [],
  ],
  [
    "a value of its own: the repository's",
    listing(["global", "filter.lfs.clean", "git-lfs clean -- %f"], ["local", "filter.lfs.clean", "sh evil.sh"]),
    ["filter.lfs.clean"],
    [],
  ],
  [
    "the repository's last value the user's (an earlier line of its own is not what git runs): the user's",
    listing(["system", "filter.lfs.clean", "cat"], ["local", "filter.lfs.clean", "sh evil.sh"], ["local", "filter.lfs.clean", "cat"]),
    ["filter.lfs.clean"],
    [["filter.lfs.clean", "cat"]],
  ],
  [
    "the user's value, then the repository's: the repository's wins in git, so it is its",
    listing(["global", "diff.x.textconv", "cat"], ["local", "diff.x.textconv", "sh evil.sh"]),
    ["diff.x.textconv"],
    [],
  ],
  [
    "the user's command-scope value beats the repository's: the user's",
    listing(["local", "diff.x.textconv", "sh evil.sh"], ["command", "diff.x.textconv", "cat"]),
    ["diff.x.textconv"],
    [["diff.x.textconv", "cat"]],
  ],
  [
    "a worktree's config is the repository's",
    listing(["global", "filter.a.clean", "cat"], ["worktree", "filter.a.clean", "sh evil.sh"]),
    ["filter.a.clean"],
    [],
  ],
  ["a bare key names no program, the user's neither", listing(["global", "filter.a.clean"], ["local", "filter.a.clean"]), ["filter.a.clean"], []],
  ...["lfs.extension.evil.clean", "lfs.customtransfer.x.path", "lfs.standalonetransferagent", "lfs.storage", "lfs.url", "remote.origin.lfsurl"].map(
    (key) =>
      [
        `the user's own, but the repository sets git-lfs's ${key}, which git-lfs would read: the repository's`,
        listing(["global", "filter.lfs.clean", "git-lfs clean -- %f"], ["local", "filter.lfs.clean", "git-lfs clean -- %f"], ["local", key, "/tmp/evil.sh"]),
        ["filter.lfs.clean"],
        [],
      ] as const,
  ),
  [
    "the user's own, and the repository sets only what `git lfs fetch` and locking write: the user's",
    listing(
      ["global", "filter.lfs.clean", "git-lfs clean -- %f"],
      ["local", "filter.lfs.clean", "git-lfs clean -- %f"],
      ["local", "lfs.repositoryformatversion", "0"],
      ["local", "lfs.https://example.com/r.git/info/lfs.locksverify", "true"],
      ["global", "lfs.storage", "/srv/lfs"],
    ),
    ["filter.lfs.clean"],
    [["filter.lfs.clean", "git-lfs clean -- %f"]],
  ],
] as const)("a driver %s", (_, text, programs, own) => {
  expect(usersOwnKeys(text, [...programs])).toEqual(own.map(([k, v]) => [k, v]));
});

test("pathspecs: the whole tree but the few held back, or the few shown, in calls of at most PATHSPEC_BYTES", () => {
  expect(pathspecCalls(["a.txt", "b.txt", "c.txt"], ["x.bin"])).toEqual([[":(top)", ":(top,literal,exclude)x.bin"]]);
  expect(pathspecCalls(["x.bin"], ["a.txt", "b.txt"])).toEqual([[":(top,literal)x.bin"]]);
  expect(pathspecCalls([], ["a.txt"])).toEqual([]);
  const many = Array.from({ length: 40_000 }, (_, i) => `assets/${String(i).padStart(8, "0")}.bin`);
  const calls = pathspecCalls(many, [...many, "x"]);
  expect(calls.length).toBeGreaterThan(1);
  expect(calls.flat()).toEqual(many.map((p) => `:(top,literal)${p}`));
  for (const call of calls) expect(call.join(" ").length).toBeLessThanOrEqual(PATHSPEC_BYTES);
});
