// How test:platforms runs a hey built for another platform on this linux-x64 machine (issue 29).
//
// linux-arm64: under qemu-user (Debian's qemu-user-static, with libc6:arm64 from multiarch), through
// a binfmt_misc handler registered inside a user namespace of the run's own (Linux 6.7+), so that
// every arm64 program hey starts — the embedded rg above all — runs under qemu too, and nothing is
// registered for the machine. The handler is a script that logs each arm64 program before handing
// it to qemu: the log shows which ran.
//
// windows-x64: under Wine 10 in the Debian trixie chroot of scripts/wine-root.sh, entered in a
// private mount namespace (proc, /dev and the run's work dir bind-mounted at /work, all gone with
// the namespace), with a copy of the chroot's Wine prefix in the work dir, so that runs in parallel
// never share a wineserver. WINEDEBUG=+process traces each program Wine starts; those lines are
// taken out of stderr and returned apart.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface PlatformRun {
  code: number;
  stdout: string;
  stderr: string;
  /** the programs the run started, as the platform layer saw them (paths) */
  started: string[];
  ms: number;
}

export interface RunOptions {
  /** the working directory (a path under the work dir) */
  cwd: string;
  timeoutMs?: number;
  /** Wine only: folders put before Windows' PATH (WINEPATH), as `C:\\…;…` */
  winePath?: string;
  /**
   * Wine only: start hey from cmd.exe after `cd /d z:\\…`, so its launch directory has a lower-case
   * drive letter, as VS Code's terminal gives one (`args` must then be plain words)
   */
  lowerDrive?: boolean;
  /**
   * Wine only: start hey from cmd.exe after these commands, joined by `&&` (`cd /d Z:\\WORK\\PROJ`,
   * `set HOME=C:\\elsewhere`: how a user's terminal may have left things); `args` must then be plain words
   */
  viaCmd?: string[];
}

export interface Runner {
  /** what it is, for the summary ("qemu-aarch64 7.2.0 in a user namespace") */
  describe: string;
  /** the platform's spelling of a path under the work dir ("/tmp/…/proj" or "Z:\\work\\proj") */
  path(hostPath: string): string;
  run(args: string[], opts: RunOptions): Promise<PlatformRun>;
  /** ends whatever the runner left running (a wineserver) */
  close(): Promise<void>;
}

const TIMEOUT_MS = 60_000; // a 130 MB binary under emulation, on a loaded 2-core machine

async function spawn(argv: string[], cwd: string, timeoutMs: number, env: Record<string, string> = {}) {
  const started = performance.now();
  const proc = Bun.spawn(argv, {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: timeoutMs,
    killSignal: "SIGKILL",
  });
  const [stdout, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  return { code, stdout, stderr, ms: performance.now() - started };
}

/** Why arm64 binaries cannot be run here, or undefined when they can. */
export function qemuMissing(): string | undefined {
  if (!Bun.which("qemu-aarch64-static")) return "qemu-aarch64-static not found (apt-get install qemu-user-static)";
  if (!existsSync("/lib/ld-linux-aarch64.so.1")) return "no arm64 C library (dpkg --add-architecture arm64 && apt-get update && apt-get install libc6:arm64)";
  if (!Bun.which("unshare")) return "unshare not found (apt-get install util-linux)";
  return undefined;
}

// The ELF header of an aarch64 executable, and the mask of what to compare: qemu's own binfmt entry.
const AARCH64_MAGIC = "\\x7fELF\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\xb7\\x00";
const AARCH64_MASK = "\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff";

export async function qemuRunner(binary: string, work: string): Promise<Runner> {
  const log = join(work, "arm64-programs.log");
  const handler = join(work, "qemu-handler.sh");
  writeFileSync(handler, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\nexec /usr/bin/qemu-aarch64-static "$@"\n`, { mode: 0o755 });
  // the kernel decodes the \x escapes of the magic and mask itself
  const entry = `:hey-test-aarch64:M::${AARCH64_MAGIC}:${AARCH64_MASK}:${handler}:`;
  const ns = 'mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc && printf "%s\\n" "$0" > /proc/sys/fs/binfmt_misc/register || exit 125; exec "$@"';
  const version = (await spawn(["qemu-aarch64-static", "--version"], work, 10_000)).stdout.split("\n")[0]?.replace(/^qemu-aarch64 version /, "") ?? "?";
  let seen = 0;
  return {
    describe: `qemu-aarch64-static ${version}, binfmt_misc in a user namespace`,
    path: (p) => p,
    async run(args, opts) {
      const r = await spawn(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", ns, entry, binary, ...args],
        opts.cwd,
        opts.timeoutMs ?? TIMEOUT_MS,
        { HOME: join(work, "home"), NO_COLOR: "1" },
      );
      const lines = existsSync(log) ? (await Bun.file(log).text()).split("\n").filter(Boolean) : [];
      const started = lines.slice(seen);
      seen = lines.length;
      return { ...r, started };
    },
    close: async () => {},
  };
}

/** Why the Wine chroot cannot be made or used here, or undefined when it can. */
export function wineMissing(): string | undefined {
  if (!Bun.which("unshare") || !Bun.which("chroot")) return "unshare or chroot not found (apt-get install util-linux coreutils)";
  if (process.getuid?.() !== 0) return "the Wine chroot needs root (chroot, mount)";
  if (!existsSync(join(wineRootPath(), ".hey-ready")) && !Bun.which("debootstrap")) return "debootstrap not found (apt-get install debootstrap)";
  return undefined;
}

const wineRootPath = () => process.env.HEY_WINE_ROOT || "/var/cache/hey-platforms/wine-trixie";

/** Makes (or finds) the chroot: scripts/wine-root.sh. */
export async function ensureWineRoot(repo: string): Promise<{ root: string; ms: number; made: boolean }> {
  const made = !existsSync(join(wineRootPath(), ".hey-ready"));
  const r = await spawn(
    ["sh", join(repo, "scripts", "wine-root.sh")],
    repo,
    15 * 60_000,
    process.env.HEY_WINE_ROOT ? { HEY_WINE_ROOT: process.env.HEY_WINE_ROOT } : {},
  );
  if (r.code !== 0) throw new Error(`scripts/wine-root.sh failed (exit ${r.code}):\n${r.stderr}`);
  return { root: r.stdout.trim(), ms: r.ms, made };
}

// Wine's own lines on stderr: "0024:trace:process:…", "0150:fixme:…", "wine: …"
const WINE_LINE = /^([0-9a-f]{4}:(trace|fixme|err|warn):|wine: |error: XDG_RUNTIME_DIR)/;
const STARTED = /^[0-9a-f]{4}:trace:process:CreateProcessInternalW app L"([^"]+)"/;

export async function wineRunner(root: string, binary: string, work: string): Promise<Runner> {
  mkdirSync(join(work, "home"), { recursive: true });
  mkdirSync(join(work, "xdg"), { recursive: true, mode: 0o700 });
  cpSync(join(root, "root", "prefix"), join(work, "prefix"), { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  cpSync(binary, join(work, "hey.exe"));
  const inside = (p: string) => {
    if (!p.startsWith(work)) throw new Error(`${p} is not under the work dir ${work}`);
    return `/work${p.slice(work.length)}`;
  };
  // $1 chroot, $2 work dir, $3 cwd inside, then the program and its arguments
  const enter = [
    "r=$1 w=$2; shift 2",
    'mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" && mount --bind "$w" "$r/work" || exit 125',
    'exec chroot "$r" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/work/home WINEPREFIX=/work/prefix XDG_RUNTIME_DIR=/work/xdg LANG=C.UTF-8 WINEDEBUG="$WINEDEBUG" WINEPATH="$WINEPATH" NO_COLOR=1 \\',
    '  /bin/sh -c \'cd "$1" && shift && exec "$@"\' sh "$@"',
  ].join("\n");
  const inChroot = (program: string[], cwd: string, timeoutMs: number, debug = "-all", winePath = "") =>
    spawn(["unshare", "--mount", "--fork", "sh", "-c", enter, "sh", root, work, inside(cwd), ...program], work, timeoutMs, {
      WINEDEBUG: debug,
      WINEPATH: winePath,
    });
  const version = readFileSync(join(root, ".hey-ready"), "utf8").trim(); // wine64 --version, written by wine-root.sh
  return {
    describe: `${version} in a Debian trixie chroot`,
    path: (p) => `Z:${inside(p).replaceAll("/", "\\")}`,
    async run(args, opts) {
      const before = opts.viaCmd ?? (opts.lowerDrive ? [`cd /d z:${inside(opts.cwd).replaceAll("/", "\\")}`] : undefined);
      const program = before
        ? ["/usr/lib/wine/wine64", "cmd", "/c", [...before, `Z:\\work\\hey.exe ${args.join(" ")}`].join(" && ")]
        : ["/usr/lib/wine/wine64", "/work/hey.exe", ...args];
      const r = await inChroot(program, opts.cwd, opts.timeoutMs ?? TIMEOUT_MS, "-all,+process", opts.winePath);
      const lines = r.stderr.split("\n");
      const started = lines.flatMap((l) => STARTED.exec(l)?.[1]?.replaceAll("\\\\", "\\") ?? []);
      return { ...r, stderr: lines.filter((l) => !WINE_LINE.test(l)).join("\n"), started };
    },
    async close() {
      await inChroot(["/bin/sh", "-c", "/usr/lib/wine/wineserver -k; /usr/lib/wine/wineserver -w"], work, 30_000);
    },
  };
}
