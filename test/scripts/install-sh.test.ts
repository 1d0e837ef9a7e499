// scripts/install.sh as users run it (`curl -fsSL …/install.sh | sh`: the script on stdin), under
// dash and bash, against release directories on a loopback server, signed with the test key (the
// script is given the test key in place of the real one): the signature it demands (checked with
// ssh-keygen or with openssl), the platform it picks, the checksum it enforces, what it leaves
// behind on failure (nothing, and an installed hey untouched), installs, reinstalls, upgrades and
// downgrades, HEY_VERSION and the PATH hint. Platforms this machine is not are simulated with
// stand-in uname/ldd/sysctl on PATH.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packAsset, sha256, writeRelease } from "../../scripts/pack.ts";
import { REPO } from "../../src/upgrade/release.ts";
import { assetName, hostTarget, TARGETS } from "../../src/upgrade/targets.ts";
import { PRODUCTION_KEY } from "../../src/upgrade/release-key.ts";
import { formatPublicKey, parsePublicKey, spkiBase64 } from "../../src/upgrade/signature.ts";
import { ensureBinary, tempDir } from "../helpers/e2e.ts";
import { signWithOtherKey, signWithTestKey, TEST_KEY, TEST_KEY_SPKI } from "../helpers/release-key.ts";
import { serveRelease, type ReleaseServer } from "../helpers/release-server.ts";
import { describeNeeding, testNeeding } from "../helpers/tools.ts";

// each test runs dist/hey or a shell several times: seconds on a loaded 2-core machine
setDefaultTimeout(30_000);

const SCRIPT = join(import.meta.dir, "..", "..", "scripts", "install.sh");
const glibc = Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime);
const host = hostTarget(process.platform, process.arch, glibc)!.id;
const UNIX = TARGETS.filter((t) => t.os !== "windows").map((t) => t.id);
const when = new Date("2027-01-01T00:00:00Z");
/** What the stand-in hey of each target prints for --version. */
const fakeLine = (id: string, version = "0.1.0") => `hey ${version} (fake, built 2027-01-01, ${id})`;
const fake = (id: string, version = "0.1.0") => new TextEncoder().encode(`#!/bin/sh\necho "${fakeLine(id, version)}"\n`);
/** install.sh with the test key in place of the release key, as the tests pipe it to the shell */
let scriptText: string;

let work: ReturnType<typeof tempDir>;
let server: ReleaseServer;
let realLine: string;
let n = 0;

beforeAll(async () => {
  const production = parsePublicKey(PRODUCTION_KEY);
  const real = readFileSync(SCRIPT, "utf8");
  scriptText = real
    .replace(`"${formatPublicKey(production, "")}"`, `"${TEST_KEY.replace(/ hey-release$/, "")}"`)
    .replace(`"${spkiBase64(production)}"`, `"${TEST_KEY_SPKI}"`);
  expect(scriptText.split("\n").filter((l, i) => l !== real.split("\n")[i])).toHaveLength(2);

  work = tempDir("hey-install-sh-");
  const www = join(work.path, "www");
  server = serveRelease(www);
  const hey = await ensureBinary();
  realLine = Bun.spawnSync([hey, "--version"]).stdout.toString().trim();
  const signed = async (name: string, assets: Parameters<typeof writeRelease>[1]) => {
    const text = writeRelease(join(www, name), assets);
    await signWithTestKey(join(www, name));
    return text;
  };
  // "real": this machine's archive holds dist/hey; "rel": every archive holds a stand-in script
  await signed(
    "real",
    UNIX.map((id) => packAsset(id, id === host ? new Uint8Array(readFileSync(hey)) : fake(id), when, 1)),
  );
  const sums = await signed(
    "rel",
    UNIX.map((id) => packAsset(id, fake(id), when, 1)),
  );
  await signed(
    "rel-0.2.0",
    UNIX.map((id) => packAsset(id, fake(id, "0.2.0"), when, 1)),
  );
  symlinkSync(join(www, "rel"), join(www, "v0.1.0"));
  symlinkSync(join(www, "rel"), join(www, "v0.2.0")); // says 0.2.0, holds 0.1.0
  writeRelease(
    join(www, "bad-sum"),
    UNIX.map((id) => packAsset(id, fake(id), when, 1)),
  );
  writeFileSync(
    join(www, "bad-sum", "SHA256SUMS"),
    sums.replace(/^[0-9a-f]{64}(?=  hey-[\w-]+\.tar\.gz$)/gm, (h) => "0000" + h.slice(4)),
  );
  await signWithTestKey(join(www, "bad-sum"));
  await signed("missing", []);
  mkdirSync(join(www, "gone"));
  for (const id of UNIX) writeFileSync(join(www, "gone", assetName(id)), "");
  writeFileSync(join(www, "gone", "SHA256SUMS"), sums);
  await signWithTestKey(join(www, "gone"));
  server.failWith(`/gone/${assetName(host)}`, 403);
  // an attacker's archives, each with a SHA256SUMS that matches them: unsigned, signed with
  // another key, or carrying the genuine release's signature (of the genuine SHA256SUMS)
  const evil = () => UNIX.map((id) => packAsset(id, new TextEncoder().encode(`#!/bin/sh\ntouch "$HOME/pwned"\necho "${fakeLine(id, "6.6.6")}"\n`), when, 1));
  writeRelease(join(www, "unsigned"), evil());
  writeRelease(join(www, "other-key"), evil());
  await signWithOtherKey(join(www, "other-key"));
  writeRelease(join(www, "old-sig"), evil());
  writeFileSync(join(www, "old-sig", "SHA256SUMS.sig"), readFileSync(join(www, "rel", "SHA256SUMS.sig")));
}, 120_000);
afterAll(() => {
  server.stop();
  work.remove();
});

interface Setup {
  /** stand-ins put first on PATH, e.g. { uname: "Linux|aarch64" } (uname -s|-m) */
  fakes?: { uname?: string; ldd?: "musl"; sysctl?: string };
  /** PATH holds only these commands (symlinks to the real ones), besides the stand-ins */
  only?: string[];
  env?: Record<string, string>;
  /** install dir, created with this hey inside */
  existing?: string;
  /** put the install dir on PATH */
  onPath?: boolean;
  release?: string;
}

/** Runs install.sh under `shell` with the script on stdin, in a fresh HOME. */
async function install(shell: string, setup: Setup = {}) {
  const root = join(work.path, `run${++n}`);
  const home = join(root, "home");
  const bin = join(root, "fakes");
  mkdirSync(home, { recursive: true });
  mkdirSync(bin);
  const stub = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  const [s, m] = (setup.fakes?.uname ?? "").split("|");
  if (setup.fakes?.uname) stub("uname", `case "$1" in -s) echo '${s}' ;; -m) echo '${m}' ;; *) echo '${s}' ;; esac`);
  if (setup.fakes?.ldd) stub("ldd", 'echo "musl libc (x86_64)" >&2; echo "Version 1.2.4" >&2; exit 1');
  if (setup.fakes?.sysctl) stub("sysctl", `echo ${setup.fakes.sysctl}`);
  for (const cmd of setup.only ?? []) {
    const real = Bun.which(cmd);
    if (!real) throw new Error(`${cmd} is not installed`);
    if (!existsSync(join(bin, cmd))) symlinkSync(real, join(bin, cmd));
  }
  const dir = setup.env?.HEY_INSTALL_DIR ?? join(home, ".local", "bin");
  if (setup.existing !== undefined) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "hey"), setup.existing, { mode: 0o755 });
  }
  const path = [bin, ...(setup.onPath ? [dir] : []), ...(setup.only ? [] : [process.env.PATH ?? "/usr/bin:/bin"])].join(":");
  const proc = Bun.spawn([Bun.which(shell)!], {
    env: { PATH: path, HOME: home, SHELL: "/bin/bash", HEY_RELEASE_URL: `${server.url}/${setup.release ?? "rel"}`, ...setup.env },
    stdin: new Blob([scriptText]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  const installed = join(dir, "hey");
  return { code, stdout, stderr, dir, home, installed, files: existsSync(dir) ? readdirSync(dir) : [] };
}

const version = (path: string) => Bun.spawnSync([path, "--version"]).stdout.toString().trim();

testNeeding(["shellcheck"])("install.sh passes shellcheck (POSIX sh)", () => {
  const run = Bun.spawnSync(["shellcheck", "--shell=sh", "--severity=style", SCRIPT]);
  expect(run.stdout.toString() + run.stderr.toString()).toBe("");
  expect(run.exitCode).toBe(0);
});

test("install.sh downloads from the repository package.json names", () => {
  expect(readFileSync(SCRIPT, "utf8")).toContain(`HEY_REPO="${REPO}"`);
});

/** What install.sh runs, for a PATH that holds nothing else (`only`). */
const BASICS = [
  "uname",
  "mktemp",
  "rm",
  "mkdir",
  "cp",
  "chmod",
  "mv",
  "sed",
  "grep",
  "awk",
  "cut",
  "tr",
  "tail",
  "tar",
  "gzip",
  "sha256sum",
  "getconf",
  "ldd",
  "curl",
];
const unsignedMessage = (name: string) =>
  `hey install: error: ${server.url}/${name} is not signed (no SHA256SUMS.sig), so the checksums in its SHA256SUMS prove nothing; nothing was installed (HEY_INSECURE=1 goes on without the signature, for a mirror you trust)\n`;

for (const shell of ["dash", "bash"])
  describeNeeding([shell], `install.sh under ${shell}`, () => {
    test("installs this machine's hey to ~/.local/bin, verified, executable, and says how to put it on PATH", async () => {
      const before = server.requests.length;
      const run = await install(shell, { release: "real" });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(server.requests.slice(before)).toEqual(["/real/SHA256SUMS", "/real/SHA256SUMS.sig", `/real/${assetName(host)}`]);
      expect(version(run.installed)).toBe(realLine);
      expect(statSync(run.installed).mode & 0o777).toBe(0o755);
      expect(run.files).toEqual(["hey"]);
      expect(run.stdout).toBe(
        `downloading ${server.url}/real/${assetName(host)}\n` +
          `installed ${realLine} to ${run.installed}\n\n` +
          `${run.dir} is not on your PATH. Add it with:\n` +
          `  echo 'export PATH="${run.dir}:$PATH"' >> ${join(run.dir, "..", "..")}/.bashrc\n` +
          `then open a new terminal (or run: export PATH="${run.dir}:$PATH").\n`,
      );
    }, 30_000);

    test("no PATH hint when the install dir is on PATH; fish gets fish_add_path", async () => {
      const dir = join(work.path, `custom-${shell}`, "bin");
      const onPath = await install(shell, { env: { HEY_INSTALL_DIR: dir }, onPath: true });
      expect(onPath).toMatchObject({ code: 0, stdout: `downloading ${server.url}/rel/${assetName(host)}\ninstalled ${fakeLine(host)} to ${dir}/hey\n` });
      const fish = await install(shell, { env: { HEY_INSTALL_DIR: join(dir, "2"), SHELL: "/usr/bin/fish" } });
      expect(fish.stdout).toContain(`  echo 'fish_add_path ${dir}/2' >> `);
      expect(fish.stdout).toContain("/.config/fish/config.fish\n");
    });

    test("refuses an archive whose checksum does not match, installing nothing", async () => {
      const run = await install(shell, { release: "bad-sum" });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `^hey install: error: checksum mismatch for ${assetName(host).replaceAll(".", "\\.")}: SHA256SUMS says 0000[0-9a-f]{60}, the download is [0-9a-f]{64}; nothing was installed\n$`,
        ),
      );
      expect(run.files).toEqual([]);
    });

    test.each([
      ["FreeBSD|amd64", 'no hey build for the operating system "FreeBSD" (there are builds for Linux, macOS and Windows)'],
      ["Linux|riscv64", 'no hey build for the CPU "riscv64" on linux (there are builds for x86_64 and arm64)'],
      ["MINGW64_NT-10.0|x86_64", "this installer is for macOS and Linux; on Windows download hey-windows-x64.zip from"],
    ])("an unsupported platform (%s) is named, nothing downloaded", async (uname, message) => {
      const before = server.requests.length;
      const run = await install(shell, { fakes: { uname } });
      expect(run.code).toBe(1);
      expect(run.stderr).toStartWith(`hey install: error: ${message}`);
      expect(server.requests.length).toBe(before);
      expect(run.files).toEqual([]);
    });

    test("musl on arm64 is unsupported, with the reason", async () => {
      const run = await install(shell, { fakes: { uname: "Linux|aarch64", ldd: "musl" } });
      expect(run).toMatchObject({
        code: 1,
        stderr: "hey install: error: no hey build for musl Linux on arm64 (only x86_64); build it from source: see the README\n",
      });
    });

    test.each([
      ["Linux|x86_64", {}, "linux-x64"],
      ["Linux|aarch64", {}, "linux-arm64"],
      ["Linux|x86_64", { ldd: "musl" as const }, "linux-x64-musl"],
      ["Darwin|x86_64", { sysctl: "0" }, "darwin-x64"],
      ["Darwin|x86_64", { sysctl: "1" }, "darwin-arm64"], // a shell under Rosetta 2
      ["Darwin|arm64", {}, "darwin-arm64"],
    ])("uname %s %j → %s", async (uname, more, id) => {
      const before = server.requests.length;
      const run = await install(shell, { fakes: { uname, ...more } });
      expect(run.code).toBe(0);
      expect(server.requests.slice(before)).toEqual(["/rel/SHA256SUMS", "/rel/SHA256SUMS.sig", `/rel/${assetName(id)}`]);
      expect(version(run.installed)).toBe(fakeLine(id));
    });

    test("a failed download is reported and installs nothing: HTTP error, no server, no such release", async () => {
      // curl's own line (the HTTP status, the connection error) comes first, then what it means
      const failed = await install(shell, { release: "gone" });
      expect(failed).toMatchObject({ code: 1, files: [] });
      expect(failed.stderr).toBe(
        `curl: (22) The requested URL returned error: 403\nhey install: error: could not download ${server.url}/gone/${assetName(host)}; nothing was installed\n`,
      );
      const none = await install(shell, { env: { HEY_RELEASE_URL: "http://127.0.0.1:9/x" } });
      expect(none).toMatchObject({ code: 1, files: [] });
      expect(none.stderr).toMatch(/^curl: \(7\) .*\nhey install: error: could not download http:\/\/127\.0\.0\.1:9\/x\/SHA256SUMS; nothing was installed\n$/);
      const missing = await install(shell, { release: "missing" });
      expect(missing).toMatchObject({
        code: 1,
        files: [],
        stderr: `hey install: error: ${server.url}/missing/SHA256SUMS lists no ${assetName(host)}; nothing was installed\n`,
      });
    });

    test("says installed, upgraded, downgraded or reinstalled as the case is", async () => {
      const cases: [string | undefined, string, (dir: string) => string][] = [
        [undefined, "rel", (d) => `installed ${fakeLine(host)} to ${d}/hey\n`],
        ['#!/bin/sh\necho "hey 0.0.1 (old)"\n', "rel", (d) => `upgraded ${d}/hey: hey 0.0.1 (old) → ${fakeLine(host)}\n`],
        ['#!/bin/sh\necho "hey 0.1.0-rc.1 (old)"\n', "rel", (d) => `upgraded ${d}/hey: hey 0.1.0-rc.1 (old) → ${fakeLine(host)}\n`],
        [`#!/bin/sh\necho "${fakeLine(host, "0.2.0")}"\n`, "rel", (d) => `downgraded ${d}/hey: ${fakeLine(host, "0.2.0")} → ${fakeLine(host)}\n`],
        [
          `#!/bin/sh\necho "${fakeLine(host, "0.10.0")}"\n`,
          "rel-0.2.0",
          (d) => `downgraded ${d}/hey: ${fakeLine(host, "0.10.0")} → ${fakeLine(host, "0.2.0")}\n`,
        ],
        [`#!/bin/sh\necho "${fakeLine(host)}"\n`, "rel", (d) => `reinstalled ${fakeLine(host)} to ${d}/hey\n`],
        ['#!/bin/sh\necho "hey 0.1.0 (another build)"\n', "rel", (d) => `reinstalled ${d}/hey: hey 0.1.0 (another build) → ${fakeLine(host)}\n`],
        [
          "#!/bin/sh\necho 'Usage: hey [options...] <url>' >&2; exit 1\n",
          "rel",
          (d) => `installed ${fakeLine(host)} to ${d}/hey (replacing a file there that is not this hey)\n`,
        ],
      ];
      for (const [existing, release, said] of cases) {
        const run = await install(shell, { existing, release, onPath: true });
        expect(run.stderr).toBe("");
        expect(run.stdout).toBe(`downloading ${server.url}/${release}/${assetName(host)}\n${said(run.dir)}`);
        expect(run.files).toEqual(["hey"]);
      }
    });

    testNeeding(["ssh-keygen", "openssl"])(
      "refuses a tampered archive whose SHA256SUMS matches it but is unsigned, signed with another key, or carries the old signature; an installed hey stays as it was",
      async () => {
        const old = '#!/bin/sh\necho "hey 0.0.1 (old)"\n';
        const before = server.requests.length;
        const unsigned = await install(shell, { release: "unsigned", existing: old });
        expect(unsigned).toMatchObject({ code: 1, stdout: "" });
        expect(unsigned.stderr).toEndWith(unsignedMessage("unsigned"));
        const runs = [unsigned];
        for (const [release, why] of [
          ["other-key", /\(ssh-keygen: Could not verify signature\.; openssl: Signature Verification Failure\)/],
          [
            "old-sig",
            /\(ssh-keygen: Signature verification failed: incorrect signature Could not verify signature\.; openssl: Signature Verification Failure\)/,
          ],
        ] as const) {
          const run = await install(shell, { release, existing: old });
          expect(run.code).toBe(1);
          expect(run.stderr).toStartWith(
            `hey install: error: ${server.url}/${release}/SHA256SUMS.sig is not a valid signature of its SHA256SUMS by hey's release key (`,
          );
          expect(run.stderr).toMatch(why);
          expect(run.stderr).toEndWith("; nothing was installed (HEY_INSECURE=1 goes on without the signature, for a mirror you trust)\n");
          runs.push(run);
        }
        for (const run of runs) {
          expect(readFileSync(run.installed, "utf8")).toBe(old);
          expect(run.files).toEqual(["hey"]);
          expect(existsSync(join(run.home, "pwned"))).toBe(false);
        }
        // the archive was never downloaded
        expect(server.requests.slice(before).filter((r) => /^\/(unsigned|other-key|old-sig)\/hey-/.test(r))).toEqual([]);
      },
    );

    test("HEY_INSECURE=1 installs an unsigned release, warning", async () => {
      const run = await install(shell, { release: "unsigned", env: { HEY_INSECURE: "1" } });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(
        `hey install: warning: HEY_INSECURE=1: going on unverified: ${server.url}/unsigned is not signed (no SHA256SUMS.sig), so the checksums in its SHA256SUMS prove nothing\n`.replace(
          /^/,
          "curl: (22) The requested URL returned error: 404\n",
        ),
      );
      expect(version(run.installed)).toBe(fakeLine(host, "6.6.6"));
    });

    test("plain http to anything but this machine is refused before anything is downloaded; HEY_INSECURE=1 allows it, warning", async () => {
      // 0.0.0.0 is not loopback, yet Linux connects it to this machine: were the rule missing,
      // the download would reach the test server
      const hostport = `0.0.0.0:${new URL(server.url).port}`;
      const before = server.requests.length;
      const run = await install(shell, { env: { HEY_RELEASE_URL: `http://${hostport}/rel` } });
      expect(run).toMatchObject({
        code: 1,
        files: [],
        stderr: `hey install: error: http://${hostport}/rel is plain http to another machine: anyone on the way can read and change what is downloaded; use https (HEY_INSECURE=1 allows it)\n`,
      });
      expect(server.requests.length).toBe(before);
      const allowed = await install(shell, { env: { HEY_RELEASE_URL: `http://${hostport}/rel`, HEY_INSECURE: "1" } });
      expect(allowed).toMatchObject({ code: 0, stderr: `hey install: warning: HEY_INSECURE=1: downloading over plain http from ${hostport}\n` });
      for (const url of ["http://localhost:1/x", "http://127.9.9.9:1/x", "http://[::1]:1/x"]) {
        const local = await install(shell, { env: { HEY_RELEASE_URL: url } });
        expect(local.stderr).not.toContain("plain http");
      }
    });

    testNeeding(["ssh-keygen", "openssl"])(
      "the signature is checked with ssh-keygen alone, with openssl alone, and refused when neither is there",
      async () => {
        const none = BASICS.filter((c) => c !== "ssh-keygen" && c !== "openssl");
        for (const tool of ["ssh-keygen", "openssl"]) {
          const good = await install(shell, { only: [...none, tool] });
          expect(good).toMatchObject({ code: 0, stderr: "" });
          const bad = await install(shell, { only: [...none, tool], release: "old-sig" });
          expect(bad.code).toBe(1);
          expect(bad.stderr).toContain(`by hey's release key (${tool}: `);
        }
        const neither = await install(shell, { only: none });
        expect(neither).toMatchObject({
          code: 1,
          files: [],
          stderr: `hey install: error: the signature of ${server.url}/rel/SHA256SUMS cannot be checked here: that needs ssh-keygen (OpenSSH 8.2 or later: apt-get install openssh-client, apk add openssh-keygen) or openssl 3; nothing was installed (HEY_INSECURE=1 goes on without the signature, for a mirror you trust)\n`,
        });
      },
    );

    test("HEY_VERSION picks the release ({version} in HEY_RELEASE_URL) and must match what it holds", async () => {
      const url = `${server.url}/v{version}`;
      const ok = await install(shell, { env: { HEY_RELEASE_URL: url, HEY_VERSION: "v0.1.0" } });
      expect(ok.code).toBe(0);
      expect(ok.stdout).toStartWith(`downloading ${server.url}/v0.1.0/${assetName(host)}\n`);
      const absent = await install(shell, { env: { HEY_RELEASE_URL: url, HEY_VERSION: "0.0.9" } });
      expect(absent).toMatchObject({ code: 1, files: [] });
      expect(absent.stderr).toEndWith(
        `: 404\nhey install: error: could not download ${server.url}/v0.0.9/SHA256SUMS (is there a release 0.0.9?); nothing was installed\n`,
      );
      const wrong = await install(shell, { env: { HEY_RELEASE_URL: url, HEY_VERSION: "0.2.0" } });
      expect(wrong).toMatchObject({
        code: 1,
        files: [],
        stderr: `hey install: error: ${server.url}/v0.2.0 holds hey 0.1.0, not the HEY_VERSION 0.2.0; nothing was installed\n`,
      });
      const bad = await install(shell, { env: { HEY_VERSION: "latest" } });
      expect(bad).toMatchObject({ code: 1, stderr: 'hey install: error: HEY_VERSION must be a version such as 0.2.0, got "latest"\n' });
      const noVersion = await install(shell, { env: { HEY_RELEASE_URL: url } });
      expect(noVersion).toMatchObject({ code: 1, stderr: "hey install: error: HEY_RELEASE_URL contains {version}: set HEY_VERSION too\n" });
    });

    testNeeding(["wget", "ssh-keygen"])("works with only shasum and wget (macOS has no sha256sum; some Linux images have no curl)", async () => {
      const only = [...BASICS.filter((c) => c !== "sha256sum" && c !== "curl"), "wget", "shasum", "ssh-keygen"];
      const run = await install(shell, { only });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(version(run.installed)).toBe(fakeLine(host));
    });
  });

test("the stand-in archives really differ per target (the platform tests above would pass vacuously otherwise)", () => {
  const sums = readFileSync(join(work.path, "www", "rel", "SHA256SUMS"), "utf8");
  const archives = sums
    .trim()
    .split("\n")
    .filter((l) => l.endsWith(".tar.gz"));
  expect(new Set(archives.map((l) => l.slice(0, 64))).size).toBe(UNIX.length);
  expect(sha256(fake("linux-x64"))).not.toBe(sha256(fake("linux-arm64")));
});
