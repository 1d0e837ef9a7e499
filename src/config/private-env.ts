// hey's environment holds the user's API keys; the commands the model runs must not read them
// back (issue 24). Their own environment is already without the keys (config/secrets.ts
// toolEnvironment, MCP's allow-list), but on Linux any process of the same user could read
// hey's from /proc/<pid>/environ. prctl(PR_SET_DUMPABLE, 0) makes that file (and ptrace) hey's
// alone: the kernel then gives it to root only. Children are dumpable again after exec, so
// nothing else changes for them; hey itself loses core dumps, which would hold the keys too.
// Other systems have no such file (macOS's `ps -E` shows only what a process was started with,
// to the same user; there is no call to stop that): there it does nothing.

/** PR_SET_DUMPABLE from <linux/prctl.h>. */
const PR_SET_DUMPABLE = 4;
/** glibc's name, then musl's (x86_64 and arm64), then the bare one. */
const LIBC = ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"];

/** Makes /proc/<hey's pid>/environ unreadable to hey's children. True when it did; never throws. */
export async function hideEnvironment(platform: string = process.platform): Promise<boolean> {
  if (platform !== "linux") return false;
  try {
    const { dlopen, FFIType } = await import("bun:ffi");
    for (const name of LIBC) {
      try {
        const libc = dlopen(name, { prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 } });
        const done = libc.symbols.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) === 0;
        libc.close();
        return done;
      } catch {} // not this libc: the next name
    }
  } catch {} // no FFI in this runtime
  return false;
}
