// A local MCP server's process (SPEC §14), in its own process group (a Ctrl-C meant for hey does
// not reach it; hey ends its whole tree), behind one small interface for stdio.ts. The group ends
// with hey however hey ends, `kill -9` too, as a bash command's does: under the bash tool's guard
// on POSIX (tools/group-guard.ts), in hey's job object on Windows (tools/job-object.ts). Two spawns:
// - POSIX: node:child_process, whose pipes can stop holding the program open (`hold(false)`): a
//   Bun.spawn pipe being read keeps the event loop alive whatever `unref()` says (Bun 1.4.5);
// - Windows: Bun.spawn, as before. Bun's node:child_process refuses a `.cmd` or `.bat` without a
//   shell (spawn EINVAL, as Node does since CVE-2024-27980), and `npx`/`uvx` servers are `.cmd`
//   shims there; Bun.spawn runs them. There `hold` does nothing: a program that embeds hey must
//   close its servers to exit.
import type { ChildProcessWithoutNullStreams, StdioOptions } from "node:child_process";
import { guardedKeepingStdin } from "../tools/group-guard.ts";
import { hostJob } from "../tools/job-object.ts";

/** A running server process. */
export interface Child {
  readonly stdout: AsyncIterable<Uint8Array>;
  readonly stderr: AsyncIterable<Uint8Array>;
  /** settles once it has exited, with why ("exited with code 1", "killed by SIGKILL") */
  readonly exited: Promise<string>;
  /** whether it has not exited yet */
  running(): boolean;
  /** writes to its stdin; rejects when the pipe is gone (EPIPE) */
  write(text: string): Promise<void>;
  /** closes its stdin; never throws */
  end(): void;
  /** a signal to its process group (to it alone on Windows); never throws */
  signal(signal: NodeJS.Signals): void;
  /** whether it (its process and pipes) keeps the program running; POSIX only */
  hold(held: boolean): void;
}

export interface ChildSpec {
  exe: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
}

/** Starts `spec.exe` as `platform` wants it; rejects when it cannot be started (EACCES and the like). */
export function spawnChild(spec: ChildSpec, platform = process.platform): Promise<Child> {
  return platform === "win32" ? spawnBun(spec) : spawnNode(spec);
}

async function spawnNode({ exe, args, env, cwd }: ChildSpec): Promise<Child> {
  const { spawn } = await import("node:child_process"); // not at start-up: ~2 ms a run without servers would pay
  const guard = await guardedKeepingStdin([exe, ...args]);
  const [program, ...rest] = guard.argv;
  // stdin, stdout and stderr are pipes; fd 3 the guard's (the types know pipes only of a three-item list)
  const stdio: StdioOptions = ["pipe", "pipe", "pipe", guard.pipe ?? "ignore"];
  const proc = spawn(program!, rest, { cwd, env, stdio, detached: true }) as ChildProcessWithoutNullStreams;
  await new Promise<void>((resolve, reject) => {
    proc.once("spawn", resolve);
    proc.once("error", reject);
  });
  proc.stdin.on("error", () => {}); // EPIPE: the process is gone, its exit says why
  const exited = new Promise<string>((resolve) => proc.once("exit", (code, signal) => resolve(signal ? `killed by ${signal}` : `exited with code ${code}`)));
  const handles = [proc, proc.stdout, proc.stderr] as unknown as { ref(): void; unref(): void }[];
  return {
    stdout: proc.stdout,
    stderr: proc.stderr,
    exited,
    running: () => proc.exitCode === null && proc.signalCode === null,
    write: (text) => new Promise<void>((resolve, reject) => proc.stdin.write(text, (e) => (e ? reject(e) : resolve()))),
    end: () => void proc.stdin.end(),
    signal(signal) {
      try {
        process.kill(-proc.pid!, signal);
      } catch {} // ESRCH: nothing left
    },
    hold(held) {
      for (const h of handles) held ? h.ref() : h.unref();
    },
  };
}

async function spawnBun({ exe, args, env, cwd }: ChildSpec): Promise<Child> {
  const joinJob = await hostJob();
  const proc = Bun.spawn([exe, ...args], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe", windowsHide: true });
  joinJob?.(proc.pid);
  return {
    stdout: proc.stdout,
    stderr: proc.stderr,
    exited: proc.exited.then((code) => (proc.signalCode ? `killed by ${proc.signalCode}` : `exited with code ${code}`)),
    running: () => proc.exitCode === null && proc.signalCode === null,
    async write(text) {
      proc.stdin.write(text);
      await proc.stdin.flush();
    },
    end() {
      try {
        Promise.resolve(proc.stdin.end()).catch(() => {}); // EPIPE: already gone
      } catch {} // already gone
    },
    signal(signal) {
      try {
        proc.kill(signal);
      } catch {} // already gone
    },
    hold() {},
  };
}
