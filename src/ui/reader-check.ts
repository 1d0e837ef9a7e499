// Whether the reader of a pipe hey writes to has gone away, asked without writing. A one-shot run
// hears of it from a failed write (ui/term.ts), but text mode writes its answer only at the end
// and a long command in JSON mode writes nothing while it runs: the run, its tool calls and their
// side effects went on for nobody (`hey -p … | head -c 5`). poll() with no events asked still
// reports POLLERR, which Linux sets on a pipe's write end once no reader is left, and POLLHUP, which
// a socket whose peer shut down (and, on macOS, such a pipe) reports; a file or /dev/null reports
// neither. One call with a timeout of 0 takes microseconds. Windows has no poll(): nothing is checked.

/** How often the reader is looked at: soon enough that a closed pipe stops the run within a second or so. */
export const READER_CHECK_MS = 1000;

/** What a reader found gone counts as: a write that failed with EPIPE (ui/output-lost.ts). */
export const READER_CLOSED = Object.assign(new Error("the reader of the pipe went away"), { code: "EPIPE" });

const POLLERR = 0x8; // the same on Linux and macOS
const POLLHUP = 0x10;

/** glibc's name, musl's (x86_64 and arm64), the bare one; macOS's libSystem. */
const LIBC: Record<string, string[]> = {
  linux: ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"],
  darwin: ["/usr/lib/libSystem.B.dylib"],
};

type Poll = (fds: Int32Array, count: number, timeout: number) => number;

let poll: Promise<Poll | undefined> | undefined;

/** libc's poll() through bun:ffi, loaded the first time it is needed; undefined where there is none. */
function loadPoll(platform: string): Promise<Poll | undefined> {
  poll ??= (async () => {
    try {
      const { dlopen, FFIType, ptr } = await import("bun:ffi");
      for (const name of LIBC[platform] ?? []) {
        try {
          const libc = dlopen(name, { poll: { args: [FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i32 } });
          return (fds, count, timeout) => libc.symbols.poll(ptr(fds), count, timeout);
        } catch {} // not this libc: the next name
      }
    } catch {} // no FFI in this runtime
    return undefined;
  })();
  return poll;
}

/**
 * Whether poll()'s answer for one `struct pollfd` (int fd; short events; short revents) says the
 * other end is gone. Pure.
 */
export function readerGone(revents: number): boolean {
  return (revents & (POLLERR | POLLHUP)) !== 0;
}

/**
 * Calls `gone` once the reader of `fd` (a pipe or socket) has gone away, checking every
 * READER_CHECK_MS without keeping hey alive; until the returned function is called. Never throws.
 */
export function checkReader(fd: number, gone: () => void, platform: string = process.platform): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  void loadPoll(platform).then((call) => {
    if (!call || stopped) return;
    const entry = new Int32Array(2); // struct pollfd: fd, then events and revents as two shorts
    const shorts = new Int16Array(entry.buffer);
    const check = () => {
      entry[0] = fd;
      shorts[2] = 0;
      shorts[3] = 0;
      if (call(entry, 1, 0) === 1 && readerGone(shorts[3]!)) {
        stop();
        gone();
      }
    };
    timer = setInterval(check, READER_CHECK_MS);
    timer.unref();
    check(); // a reader gone before the run began (`| true`)
  });
  const stop = () => {
    stopped = true;
    if (timer) clearInterval(timer);
  };
  return stop;
}
