// Release locations, checksum lists, versions and targets: the pure rules install.sh mirrors.
import { describe, expect, test } from "bun:test";
import pkg from "../../package.json" with { type: "json" };
import { parseVersionLine, versionLine } from "../../src/upgrade/build-info.ts";
import { checkTransport, compareVersions, formatSums, normalizeVersion, parseSums, REPO, releaseUrl } from "../../src/upgrade/release.ts";
import { assetName, hostTarget, TARGETS } from "../../src/upgrade/targets.ts";

const GH = `https://github.com/${REPO}/releases`;

describe("releaseUrl", () => {
  test("the repository comes from package.json", () => {
    expect(pkg.repository.url).toContain(`github.com/${REPO}.git`);
    expect(REPO).toMatch(/^[\w-]+\/[\w-]+$/);
  });

  test.each([
    ["latest GitHub release", {}, `${GH}/latest/download`],
    ["a pinned version", { version: "0.2.0" }, `${GH}/download/v0.2.0`],
    ["a pinned version written with v", { version: "v1.10.3-rc.1" }, `${GH}/download/v1.10.3-rc.1`],
    ["a mirror directory", { releaseUrl: "http://127.0.0.1:8080/rel/" }, "http://127.0.0.1:8080/rel"],
    ["a mirror with versions", { releaseUrl: "https://m.example/hey/v{version}", version: "0.3.0" }, "https://m.example/hey/v0.3.0"],
    ["a mirror without {version}, version checked by the caller", { releaseUrl: "https://m.example/hey", version: "0.3.0" }, "https://m.example/hey"],
  ])("%s", (_name, opts, url) => {
    expect(releaseUrl(opts)).toBe(url);
  });

  test.each([
    [{ version: "latest" }, 'HEY_VERSION must be a version such as 0.2.0, got "latest"'],
    [{ version: "1.2" }, "HEY_VERSION must be a version such as 0.2.0"],
    [{ releaseUrl: "ftp://x/y" }, "HEY_RELEASE_URL must be an http:// or https:// URL"],
    [{ releaseUrl: "http://x/v{version}" }, "HEY_RELEASE_URL contains {version}: set HEY_VERSION too"],
  ])("refuses %j", (opts, message) => {
    expect(() => releaseUrl(opts)).toThrow(message);
  });
});

describe("checkTransport: https, or plain http to this machine only", () => {
  test.each([
    "https://github.com/hey-cli/hey/releases/latest/download",
    "http://127.0.0.1:8080/rel",
    "http://127.9.9.9/x",
    "http://localhost:1/x",
    "http://mirror.localhost/x",
    "http://[::1]:1/x",
  ])("%s is fine", (url) => {
    expect(checkTransport(url, false)).toBeUndefined();
  });
  test.each(["http://mirror.example/hey", "http://0.0.0.0:8080/x", "http://10.1.2.3/x", "http://127.0.0.1.example/x", "http://user@mirror.example/x"])(
    "%s is refused, and allowed with a warning under HEY_INSECURE=1",
    (url) => {
      expect(() => checkTransport(url, false)).toThrow(
        `${url} is plain http to another machine: anyone on the way can read and change what is downloaded; use https (HEY_INSECURE=1 allows it)`,
      );
      expect(checkTransport(url, true)).toStartWith("HEY_INSECURE=1: downloading over plain http from ");
    },
  );
});

describe("SHA256SUMS", () => {
  const a = "a".repeat(64);
  const b = "B".repeat(64);
  test("reads sha256sum's text and binary lines, lowercases, and writes them back sorted", () => {
    const sums = parseSums(`${b} *hey-linux-x64.tar.gz\n${a}  hey-darwin-arm64.tar.gz\r\n\n`);
    expect([...sums]).toEqual([
      ["hey-linux-x64.tar.gz", "b".repeat(64)],
      ["hey-darwin-arm64.tar.gz", a],
    ]);
    expect(formatSums(sums)).toBe(`${a}  hey-darwin-arm64.tar.gz\n${"b".repeat(64)}  hey-linux-x64.tar.gz\n`);
  });
  test.each(["<html>Not Found</html>", `${a.slice(1)}  x`, `${a}x`])("refuses %j, naming the line", (text) => {
    expect(() => parseSums(`${a}  ok\n${text}\n`)).toThrow(/SHA256SUMS line 2 is not/);
  });
});

test.each([
  ["0.1.0", "0.1.0", 0],
  ["0.2.0", "0.1.9", 1],
  ["0.10.0", "0.9.0", 1],
  ["1.0.0", "1.0.0-rc.1", 1],
  ["1.0.0-alpha", "1.0.0-beta", -1],
  ["0.1.0", "1.0.0", -1],
])("compareVersions(%s, %s) has the sign of %d", (a, b, sign) => {
  expect(Math.sign(compareVersions(a, b))).toBe(sign);
});

test("normalizeVersion strips a leading v", () => {
  expect(normalizeVersion(" v0.2.0 ")).toBe("0.2.0");
});

describe("targets", () => {
  test("the six release targets and their downloads", () => {
    expect(TARGETS.map((t) => assetName(t.id))).toEqual([
      "hey-linux-x64.tar.gz",
      "hey-linux-arm64.tar.gz",
      "hey-linux-x64-musl.tar.gz",
      "hey-darwin-x64.tar.gz",
      "hey-darwin-arm64.tar.gz",
      "hey-windows-x64.zip",
    ]);
  });
  test.each([
    ["linux", "x64", true, "linux-x64"],
    ["linux", "x64", false, "linux-x64-musl"],
    ["linux", "arm64", true, "linux-arm64"],
    ["linux", "arm64", false, undefined],
    ["darwin", "arm64", true, "darwin-arm64"],
    ["win32", "x64", false, "windows-x64"],
    ["freebsd", "x64", false, undefined],
    ["linux", "riscv64", true, undefined],
  ])("hostTarget(%s, %s, glibc %p) is %p", (platform, arch, glibc, id) => {
    expect(hostTarget(platform, arch, glibc)?.id).toBe(id);
  });
});

describe("the version line", () => {
  test.each([
    [{ version: "0.1.0", commit: "3f2a9c1d4e5b", date: "2026-12-02", target: "linux-x64" }, "hey 0.1.0 (3f2a9c1d4e5b, built 2026-12-02, linux-x64)"],
    [{ version: "0.2.0-rc.1", commit: "dev", date: "", target: undefined }, "hey 0.2.0-rc.1 (dev)"],
  ])("%j reads %s and parses back to its version", (info, line) => {
    expect(versionLine(info)).toBe(line);
    expect(parseVersionLine(line + "\n")).toBe(info.version);
  });
  test.each(["", "bash: hey: not found", "hey version 1"])("%j names no version", (text) => {
    expect(parseVersionLine(text)).toBeUndefined();
  });
});
