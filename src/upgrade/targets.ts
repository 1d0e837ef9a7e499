// The platforms hey is released for (SPEC §20) and what each needs: the Bun compile target, the
// npm package whose ripgrep is embedded, and the asset users download. Pure; one table read by
// scripts/build.ts, the Homebrew generator and `hey upgrade` (scripts/install.sh keeps its own
// copy of the names, checked against this table by its test).

export interface Target {
  /** `<os>-<arch>[-musl]`, the suffix of every file name below */
  id: string;
  os: "linux" | "darwin" | "windows";
  arch: "x64" | "arm64";
  /** `bun build --target` */
  bun: string;
  /** the `@vscode/ripgrep-<ripgrep>` package whose rg is embedded */
  ripgrep: string;
}

export const TARGETS: readonly Target[] = [
  { id: "linux-x64", os: "linux", arch: "x64", bun: "bun-linux-x64", ripgrep: "linux-x64" },
  { id: "linux-arm64", os: "linux", arch: "arm64", bun: "bun-linux-arm64", ripgrep: "linux-arm64" },
  // the linux rg of @vscode/ripgrep is a static-pie executable: it needs no libc, musl or glibc
  { id: "linux-x64-musl", os: "linux", arch: "x64", bun: "bun-linux-x64-musl", ripgrep: "linux-x64" },
  { id: "darwin-x64", os: "darwin", arch: "x64", bun: "bun-darwin-x64", ripgrep: "darwin-x64" },
  { id: "darwin-arm64", os: "darwin", arch: "arm64", bun: "bun-darwin-arm64", ripgrep: "darwin-arm64" },
  { id: "windows-x64", os: "windows", arch: "x64", bun: "bun-windows-x64", ripgrep: "win32-x64" },
];

export const isWindows = (id: string) => id.startsWith("windows-");

/** The binary's name inside the archive, and the ripgrep's inside the binary. */
export const binaryName = (id: string) => (isWindows(id) ? "hey.exe" : "hey");
export const ripgrepName = (id: string) => (isWindows(id) ? "rg.exe" : "rg");

/** `hey-linux-x64.tar.gz`, `hey-windows-x64.zip`. */
export const assetName = (id: string) => `hey-${id}${isWindows(id) ? ".zip" : ".tar.gz"}`;

/** `dist/hey-<id>[.exe]`, the built binary before packing. */
export const builtName = (id: string) => `hey-${id}${isWindows(id) ? ".exe" : ""}`;

/**
 * The target of the machine described (Node's `process.platform`/`process.arch`, and whether
 * the C library is glibc), or undefined when hey is not released for it.
 */
export function hostTarget(platform: string, arch: string, glibc: boolean): Target | undefined {
  const os = platform === "win32" ? "windows" : platform;
  const musl = os === "linux" && !glibc ? "-musl" : "";
  return TARGETS.find((t) => t.id === `${os}-${arch}${musl}`);
}
