// Path entries for the file tools (`read_file: src/**`, `deny: read_file: ~/.ssh/**`): what a
// pattern is matched against — the file a call really opens, `~`, `..` and links resolved — and
// what it covers (`*` in one name, `**` any depth, a directory everything in it), for POSIX and
// Windows paths; deny wins, an allow list with a path entry allows the tool only there, a plain
// entry everywhere; a refusal names the entry that allows exactly the path refused.
import { expect, test } from "bun:test";
import * as path from "node:path";
import { type FilePlace, readFilePattern, refusedFiles, type FilePattern } from "../../src/permission/file-paths.ts";
import { refusedOutright } from "../../src/permission/refused.ts";
import { blockedTools } from "../../src/permission/blocked-tools.ts";
import { compileRules, decide } from "../../src/permission/rules.ts";

/** A disk of links only: `links` maps a link's absolute path to where it points (resolved as the kernel does, prefix by prefix). */
function placeOf(links: Record<string, string>, win = false, cwd = win ? "C:\\proj" : "/proj", home = win ? "C:\\Users\\u" : "/home/u"): FilePlace {
  const p = win ? path.win32 : path.posix;
  const real = (abs: string): string => {
    const parts = abs.split(p.sep);
    for (let n = parts.length; n > 1; n--) {
      const head = parts.slice(0, n).join(p.sep);
      if (links[head]) return real(p.join(links[head]!, ...parts.slice(n)));
    }
    return abs;
  };
  return { cwd, home, real, fold: win, p };
}

const LINKS = { "/proj/src/keys": "/home/u/.ssh", "/proj/docs": "/elsewhere/docs", "/proj/src/rc": "/home/u/.bashrc" };

function verdict(lists: { allow?: string[]; deny?: string[] }, tool: string, args: Record<string, unknown>, given: FilePlace | "none" = placeOf(LINKS)) {
  const place = given === "none" ? undefined : given;
  const { rules, errors } = compileRules({ allow: lists.allow ?? [], deny: lists.deny ?? [] }, "sh", undefined, place?.fold ?? false, place);
  expect(errors).toEqual([]);
  const d = decide(tool, args, rules);
  return d.allowed ? "allowed" : d.reason.replace("blocked by permission rules: ", "");
}

const SRC = { allow: ["read_file: src/**"] };
test.each([
  // relative patterns are under the working directory; the path is too, `..` and `./` resolved
  [SRC, "src/a.ts", "allowed"],
  [SRC, "./src/deep/b/c.ts", "allowed"],
  [SRC, "/proj/src/a.ts", "allowed"],
  [SRC, "../proj/src/a.ts", "allowed"],
  [SRC, "srcx/a.ts", 'read_file of `srcx/a.ts` matches no allow entry; the allow entry "read_file: srcx/a.ts" would allow it (allowed: read_file: src/**)'],
  [SRC, "src/../.env", 'read_file of `src/../.env` matches no allow entry; the allow entry "read_file: .env" would allow it (allowed: read_file: src/**)'],
  [
    SRC,
    "../other/.env",
    'read_file of `../other/.env` matches no allow entry; the allow entry "read_file: /other/.env" would allow it (allowed: read_file: src/**)',
  ],
  // a link inside src/ leads out of it: judged where it leads
  [
    SRC,
    "src/keys/id_ed25519",
    'read_file of `src/keys/id_ed25519` (/home/u/.ssh/id_ed25519) matches no allow entry; the allow entry "read_file: ~/.ssh/id_ed25519" would allow it (allowed: read_file: src/**)',
  ],
  [
    SRC,
    "~/.ssh/id_ed25519",
    'read_file of `~/.ssh/id_ed25519` matches no allow entry; the allow entry "read_file: ~/.ssh/id_ed25519" would allow it (allowed: read_file: src/**)',
  ],
  [
    SRC,
    "/etc/hostname",
    'read_file of `/etc/hostname` matches no allow entry; the allow entry "read_file: /etc/hostname" would allow it (allowed: read_file: src/**)',
  ],
  // `*` within one name, `**` at any depth, a directory covers what is in it, `~/` and absolute patterns
  [{ allow: ["read_file: src/*.ts"] }, "src/a.ts", "allowed"],
  [
    { allow: ["read_file: src/*.ts"] },
    "src/sub/a.ts",
    'read_file of `src/sub/a.ts` matches no allow entry; the allow entry "read_file: src/sub/a.ts" would allow it (allowed: read_file: src/*.ts)',
  ],
  [{ allow: ["read_file: **/*.test.ts"] }, "a/b/c.test.ts", "allowed"],
  [{ allow: ["read_file: src"] }, "src/sub/a.ts", "allowed"],
  [{ allow: ["read_file: ~/notes/**"] }, "/home/u/notes/x.md", "allowed"],
  [{ allow: ["read_file: /etc/host?ame"] }, "/etc/hostname", "allowed"],
  // a pattern's own directory through a link: where it leads counts (docs -> /elsewhere/docs)
  [{ allow: ["read_file: docs/**"] }, "/elsewhere/docs/x.md", "allowed"],
  // deny wins over a plain allow entry; a link to what is denied is refused as the file it reads
  [{ allow: ["read_file"], deny: ["read_file: ~/.ssh/**"] }, "~/.ssh/id_ed25519", "read_file of `~/.ssh/id_ed25519` matches deny entry `read_file: ~/.ssh/**`"],
  [
    { allow: ["read_file"], deny: ["read_file: ~/.ssh/**"] },
    "src/keys/id_ed25519",
    "read_file of `src/keys/id_ed25519` (/home/u/.ssh/id_ed25519) matches deny entry `read_file: ~/.ssh/**`",
  ],
  [{ deny: ["read_file: ~/.ssh"] }, "/home/u/.ssh/config", "read_file of `/home/u/.ssh/config` matches deny entry `read_file: ~/.ssh`"],
  [{ deny: ["read_file: .env"] }, "src/../.env", "read_file of `src/../.env` matches deny entry `read_file: .env`"],
  [{ deny: ["read_file: /**/.env"] }, "../other/.env", "read_file of `../other/.env` matches deny entry `read_file: /**/.env`"],
  // a plain entry still allows every path; a path entry of another tool allows nothing here
  [{ allow: ["read_file", "read_file: src/**"] }, "/etc/hostname", "allowed"],
  [{ deny: ["write_file: ~/.ssh/**"] }, "~/.ssh/id_ed25519", "allowed"],
])("%j: read_file %s → %s", (lists, file, expected) => {
  expect(verdict(lists, "read_file", { path: file })).toBe(expected);
});

// links whose names are what a user denies: `.env` and `server.key` lead to files named otherwise,
// `keys` to a directory elsewhere
const NAMED = {
  "/proj/.env": "/proj/.env.local",
  "/proj/server.key": "/proj/certs/server.pem",
  "/proj/keys": "/vault",
  "/vault/link.pem": "/vault/notes.txt",
};
test.each([
  // a deny entry refuses the name the call used as well as where it leads, with or without a wildcard (README's own example first)
  [{ allow: ["read_file: **"], deny: ["read_file: ~/.ssh/**", "read_file: /**/.env"] }, ".env", "read_file of `.env` matches deny entry `read_file: /**/.env`"],
  [{ deny: ["read_file: **/.env"] }, "./src/../.env", "read_file of `./src/../.env` matches deny entry `read_file: **/.env`"],
  [{ deny: ["read_file: **/*.key"] }, "server.key", "read_file of `server.key` matches deny entry `read_file: **/*.key`"],
  [{ deny: ["read_file: *.key"] }, "/proj/server.key", "read_file of `/proj/server.key` matches deny entry `read_file: *.key`"],
  [{ allow: ["read_file: src/**"], deny: ["read_file: **/*.key"] }, "server.key", "read_file of `server.key` matches deny entry `read_file: **/*.key`"],
  [{ deny: ["read_file: server.key"] }, "server.key", "read_file of `server.key` matches deny entry `read_file: server.key`"],
  // where it leads matches: the refusal says where that is
  [{ deny: ["read_file: **/*.pem"] }, "server.key", "read_file of `server.key` (/proj/certs/server.pem) matches deny entry `read_file: **/*.pem`"],
  // a pattern through a link (keys -> /vault): the name as written, or under where its directory leads
  [{ deny: ["read_file: keys/*.pem"] }, "keys/a.pem", "read_file of `keys/a.pem` matches deny entry `read_file: keys/*.pem`"],
  [{ deny: ["read_file: keys/*.pem"] }, "/vault/link.pem", "read_file of `/vault/link.pem` matches deny entry `read_file: keys/*.pem`"],
  [{ deny: ["read_file: keys/*.pem"] }, "/vault/notes.txt", "allowed"],
  // an allow entry is judged where the link leads only: a link to outside what it allows is not allowed by its name
  [
    { allow: ["read_file: **/*.key"] },
    "server.key",
    'read_file of `server.key` (/proj/certs/server.pem) matches no allow entry; the allow entry "read_file: certs/server.pem" would allow it (allowed: read_file: **/*.key)',
  ],
  [{ allow: ["read_file: certs/**"] }, "server.key", "allowed"],
  [{ allow: ["read_file: /vault/**"] }, "keys/x.txt", "allowed"],
])("links named as denied: %j: read_file %s → %s", (lists, file, expected) => {
  expect(verdict(lists, "read_file", { path: file }, placeOf(NAMED))).toBe(expected);
});

test("a grep, a write and a Windows path are refused by a deny entry matching the name of a link", () => {
  expect(verdict({ deny: ["grep: **/.env"] }, "grep", { pattern: "x", path: ".env" }, placeOf(NAMED))).toBe(
    "grep of `.env` matches deny entry `grep: **/.env`",
  );
  expect(verdict({ deny: ["write_file: **/.env"] }, "write_file", { path: ".env", content: "" }, placeOf(NAMED))).toBe(
    "write_file of `.env` matches deny entry `write_file: **/.env`",
  );
  const win = placeOf({ "C:\\proj\\server.key": "C:\\proj\\certs\\server.pem" }, true);
  expect(verdict({ deny: ["read_file: **\\*.key"] }, "read_file", { path: "SERVER.KEY" }, win)).toBe(
    "read_file of `SERVER.KEY` matches deny entry `read_file: **\\*.key`",
  );
});

test.each([
  // grep's path defaults to the working directory; a folder an allow entry may cover a file in is
  // searched (refusedFiles passes the other files by), one it cannot is refused
  [{ allow: ["grep: src/**"] }, {}, "allowed"],
  [{ allow: ["grep: src/**"] }, { path: "src" }, "allowed"],
  [{ allow: ["grep: src/**"] }, { path: "src/lib" }, "allowed"],
  [{ allow: ["grep: src/**"] }, { path: "lib" }, 'grep of `lib` matches no allow entry; the allow entry "grep: lib" would allow it (allowed: grep: src/**)'],
  // a deny entry refuses a grep of what it names, a folder inside it too; a tree around it is searched, its files passed by
  [{ deny: ["grep: src/secret/**"] }, {}, "allowed"],
  [{ deny: ["grep: src/secret/**"] }, { path: "src" }, "allowed"],
  [{ deny: ["grep: src/secret/**"] }, { path: "src/secret" }, "grep of `src/secret` matches deny entry `grep: src/secret/**`"],
  [{ deny: ["grep: src/secret/**"] }, { path: "src/secret/old" }, "grep of `src/secret/old` matches deny entry `grep: src/secret/**`"],
  [{ deny: ["grep: src/secret/**"] }, { path: "lib" }, "allowed"],
  [{ deny: ["grep: **/.env"] }, {}, "allowed"],
  [{ deny: ["grep: ~/.ssh/**"] }, { path: "src/keys" }, "grep of `src/keys` (/home/u/.ssh) matches deny entry `grep: ~/.ssh/**`"],
])("%j: grep %j → %s", (lists, args, expected) => {
  expect(verdict(lists, "grep", { pattern: "x", ...args })).toBe(expected);
});

test("write_file and edit are fenced by their own entries", () => {
  const lists = { allow: ["write_file: src/**", "edit: src/**", "read_file"] };
  expect(verdict(lists, "write_file", { path: "src/new/x.ts", content: "" })).toBe("allowed");
  // a link in src/ to a file outside (which need not exist yet): the write would land there
  expect(verdict(lists, "write_file", { path: "src/rc", content: "" })).toBe(
    'write_file of `src/rc` (/home/u/.bashrc) matches no allow entry; the allow entry "write_file: ~/.bashrc" would allow it (allowed: read_file, write_file: src/**, edit: src/**)',
  );
  expect(verdict(lists, "edit", { path: "src/keys/authorized_keys", old_string: "a", new_string: "b" })).toBe(
    'edit of `src/keys/authorized_keys` (/home/u/.ssh/authorized_keys) matches no allow entry; the allow entry "edit: ~/.ssh/authorized_keys" would allow it (allowed: read_file, write_file: src/**, edit: src/**)',
  );
});

test.each([
  // Windows: either separator in a path or a pattern, names compared ignoring case, drive letters too
  ["src\\a.ts", "allowed"],
  ["SRC/A.ts", "allowed"],
  ["c:\\proj\\src\\a.ts", "allowed"],
  [
    "..\\other\\.env",
    'read_file of `..\\other\\.env` matches no allow entry; the allow entry "read_file: C:\\\\other\\\\.env" would allow it (allowed: read_file: src\\**)',
  ],
  [
    "~\\.ssh\\id_ed25519",
    'read_file of `~\\.ssh\\id_ed25519` matches no allow entry; the allow entry "read_file: ~/.ssh/id_ed25519" would allow it (allowed: read_file: src\\**)',
  ],
])("Windows, read_file: src\\** → read_file %s → %s", (file, expected) => {
  expect(verdict({ allow: ["read_file: src\\**"] }, "read_file", { path: file }, placeOf({}, true))).toBe(expected);
});

test("patterns with no name before their first * (/**, C:\\**) cover the whole disk", () => {
  expect(verdict({ allow: ["read_file: /**/.env"] }, "read_file", { path: "/a/b/.env" })).toBe("allowed");
  expect(verdict({ allow: ["read_file: C:\\**"] }, "read_file", { path: "..\\x.txt" }, placeOf({}, true))).toBe("allowed");
  expect(verdict({ allow: ["read_file: D:\\**"] }, "read_file", { path: "x.txt" }, placeOf({}, true))).toStartWith(
    "read_file of `x.txt` matches no allow entry",
  );
});

test("a path that cannot be looked at in time, or a check given no place to resolve from, refuses rather than allows", () => {
  const hung: FilePlace = {
    ...placeOf({}),
    real: () => {
      throw new Error("/proj did not answer within 5 s");
    },
  };
  expect(verdict(SRC, "read_file", { path: "src/a.ts" }, hung)).toBe("cannot verify read_file of `src/a.ts`: /proj did not answer within 5 s");
  expect(verdict({ deny: ["read_file: ~/.ssh/**"] }, "read_file", { path: "a" }, "none")).toBe(
    "cannot verify read_file of `a`: this check was given no working directory to resolve paths from",
  );
  // a pattern's own directory that does not answer: not taken for "no entry allows it"
  const slowDir: FilePlace = {
    ...placeOf({}),
    real: (abs) => {
      if (abs.startsWith("/mnt")) throw new Error("/mnt did not answer within 5 s");
      return abs;
    },
  };
  expect(verdict({ allow: ["read_file: /mnt/share/**"] }, "read_file", { path: "/etc/x" }, slowDir)).toBe(
    "cannot verify read_file of `/etc/x` against allow entry `read_file: /mnt/share/**`: /mnt did not answer within 5 s",
  );
  // without a path entry for the tool, nothing is looked up
  expect(verdict({ allow: ["read_file"], deny: ["grep: x/**"] }, "read_file", { path: "a" }, "none")).toBe("allowed");
});

test("a tool an allow entry gives paths stays offered, unless a deny entry names it whole; an MCP tool is judged by its name only", () => {
  const { rules } = compileRules({ allow: ["read_file: src/**", "grep: src/**"], deny: [] }, "sh", undefined, false, placeOf({}));
  expect(refusedOutright("read_file", rules)).toBe(false);
  expect(refusedOutright("grep", rules)).toBe(false);
  expect(refusedOutright("write_file", rules)).toBe(true);
  expect(blockedTools(rules, ["read_file", "grep", "edit"])).toEqual(["edit"]);
  const denied = compileRules({ allow: ["read_file: src/**"], deny: ["read_file"] }, "sh", undefined, false, placeOf({})).rules;
  expect(refusedOutright("read_file", denied)).toBe(true);
  const origin = { server: "fs", name: "read_file", qualified: "fs_read_file" };
  expect(decide("fs_read_file", { path: "src/a.ts" }, rules, origin).allowed).toBe(false);
});

const patterns = (entries: string[]) => entries.map((e) => readFilePattern(e) as FilePattern);
test.each([
  // each file a grep of a tree finds, judged alone: its name as found, and where the links above it lead
  [["grep: **/.env"], [], "/proj/.env", true],
  [["grep: **/.env"], [], "/proj/app/config/.env", true],
  [["grep: **/.env"], [], "/proj/.env.example", false],
  [["grep: **/.env"], [], "/proj/src/a.ts", false],
  [["grep: ~/.ssh/**"], [], "/proj/src/keys/id_ed25519", true], // src/keys -> ~/.ssh
  [["grep: /elsewhere/docs/private/**"], [], "/proj/docs/private/plan.md", true], // docs -> /elsewhere/docs
  [["grep: src/secret/**"], [], "/proj/src/secret/a/b.txt", true],
  [["grep: src/secret/**"], [], "/proj/src/secrets.ts", false],
  [["read_file: **/.env"], [], "/proj/.env", false], // each entry judges its own tool
  // an allow list of grep paths: only what it covers, links followed
  [[], ["grep: src/**"], "/proj/src/a.ts", false],
  [[], ["grep: src/**"], "/proj/README.md", true],
  [[], ["grep: src/**"], "/proj/src/keys/id_ed25519", true],
])("deny %j, allow %j: grep passes %s by → %p", (deny, allow, file, expected) => {
  const filter = refusedFiles("grep", { deny: patterns(deny), allow: patterns(allow) }, placeOf(LINKS), false);
  expect(filter?.(file) ?? false).toBe(expected);
});

test("a grep the allow list allows by name, or no path entry for grep, passes no file by; a folder that cannot be looked at keeps its files out", () => {
  expect(refusedFiles("grep", { deny: [], allow: patterns(["grep: src/**"]) }, placeOf(LINKS), true)).toBeUndefined();
  expect(refusedFiles("grep", { deny: patterns(["read_file: **/.env"]) }, placeOf(LINKS), false)).toBeUndefined();
  const hung: FilePlace = {
    ...placeOf({}),
    real: (abs) => {
      if (abs.startsWith("/proj/mnt")) throw new Error("/proj/mnt did not answer within 5 s");
      return abs;
    },
  };
  const filter = refusedFiles("grep", { deny: patterns(["grep: **/.env"]) }, hung, false)!;
  expect(filter("/proj/mnt/a.ts")).toBe(true);
  expect(filter("/proj/src/a.ts")).toBe(false);
});
