// Runs a command line under a real dash or bash with PATH holding only logging stubs, and returns
// every program the shell (or a program it started) executed: each stub records its argv in a file
// of its own, then either exits or, for programs that run other programs (env, xargs, sh…), execs
// the real one, whose PATH lookups land on the stubs again.
import { closeSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type Shell = "dash" | "bash";

/** Programs that only log (and, for cat, copy stdin to stdout so pipelines keep their data). */
const LOGGING = [
  ...["pwned", "rm", "ls", "cat", "echo", "printf", "git", "curl", "id", "head", "tail", "grep", "sort", "wc", "make", "npm", "node", "python3"],
  ...["true", "false", "sleep", "date", "touch", "mkdir", "cp", "mv", "tee", "sed", "awk", "tr", "diff", "sudo", "doas", "zsh", "ksh", "test", "["],
  ...["strace", "unshare", "nsenter", "chroot", "su", "runuser", "watch", "gitk", "lsof", "EOF", "x", "y", "f", "editor", "vi"],
];
/** Programs that log, then run the real program (found on the machine's own PATH). */
const PASS_THROUGH = [
  "env",
  "timeout",
  "nice",
  "nohup",
  "stdbuf",
  "xargs",
  "find",
  "flock",
  "setsid",
  "prlimit",
  "setpriv",
  "setarch",
  "linux64",
  "taskset",
  "ionice",
  "chrt",
  "choom",
  "script",
  "time",
  "bash",
  "dash",
];

const RUN_TIMEOUT_MS = 10_000; // a stub returns at once; only a corpus mistake (a loop) gets near this
const SEP = "\x1f"; // between argv words; the corpus holds no control characters
const END = "\x1e";

export interface Stubs {
  /** run one command line; resolves to the argv of every program executed (order not kept) */
  run(shell: Shell, command: string): Promise<string[][]>;
  home: string;
  cleanup(): void;
}

/**
 * Stub directories for `workers` concurrent runs per shell (each has its own log directory, written
 * into its scripts, so even `env -i` keeps logging). `realPath` finds the real programs. `setup`
 * fills each run's fresh working directory (`bin` is that run's stub directory, for scripts that
 * must reach a stub by path once a command has changed PATH).
 */
export function createStubs(workers: number, realPath: (name: string) => string | null, setup?: (cwd: string, bin: string) => void): Stubs {
  const root = mkdtempSync(join(tmpdir(), "hey-stubs-"));
  const home = join(root, "home");
  mkdirSync(home);
  const slots: { shell: Shell; bin: string; logs: string; cwd: string; busy: boolean }[] = [];
  for (const shell of ["dash", "bash"] as const) {
    for (let n = 0; n < workers; n++) {
      const dir = join(root, `${shell}-${n}`);
      const [bin, logs, cwd] = [join(dir, "bin"), join(dir, "logs"), join(dir, "cwd")];
      for (const d of [bin, logs, cwd]) mkdirSync(d, { recursive: true });
      const log = `printf '%s${SEP}' "\${0##*/}" "$@" >> '${logs}'/$$; printf '${END}' >> '${logs}'/$$`;
      const script = (tail: string) => `#!/bin/sh\n${log}\n${tail}\n`;
      for (const name of LOGGING)
        writeFileSync(join(bin, name), script(name === "cat" ? "[ $# -eq 0 ] && while IFS= read -r l; do printf '%s\\n' \"$l\"; done\nexit 0" : "exit 0"), {
          mode: 0o755,
        });
      for (const name of PASS_THROUGH) {
        const target = realPath(name);
        writeFileSync(join(bin, name), script(target ? `exec '${target}' "$@"` : "exit 0"), { mode: 0o755 });
      }
      // `sh` is the shell under test: Debian's /bin/sh is dash, macOS's is bash
      writeFileSync(join(bin, "sh"), script(`exec '${realPath(shell)}' "$@"`), { mode: 0o755 });
      slots.push({ shell, bin, logs, cwd, busy: false });
    }
  }
  const waiting: (() => void)[] = [];

  const run = async (shell: Shell, command: string): Promise<string[][]> => {
    let slot = slots.find((s) => s.shell === shell && !s.busy);
    while (!slot) {
      await new Promise<void>((resolve) => waiting.push(resolve));
      slot = slots.find((s) => s.shell === shell && !s.busy);
    }
    slot.busy = true;
    try {
      for (const d of [slot.logs, slot.cwd]) {
        rmSync(d, { recursive: true, force: true });
        mkdirSync(d);
      }
      setup?.(slot.cwd, slot.bin);
      // every process started inherits fd 3; its pipe ends when the last of them (background jobs,
      // `setsid` children included) has exited, so no log is read before it is written
      const proc = Bun.spawn({
        cmd: [realPath(shell)!, "-c", command],
        cwd: slot.cwd,
        env: { PATH: slot.bin, HOME: home, LC_ALL: "C", SHELL: join(slot.bin, "sh") },
        stdio: ["ignore", "ignore", "ignore", "pipe"],
        detached: true,
        timeout: RUN_TIMEOUT_MS,
        killSignal: "SIGKILL",
      });
      const fd = proc.stdio[3]!;
      const drained = Bun.file(fd).text();
      await proc.exited;
      const done = await Promise.race([drained.then(() => true), Bun.sleep(RUN_TIMEOUT_MS).then(() => false)]);
      try {
        process.kill(-proc.pid, "SIGKILL"); // whatever is left of the group
      } catch {
        // ESRCH: nothing left
      }
      if (done) closeSync(fd);
      return readdirSync(slot.logs).flatMap((f) =>
        readFileSync(join(slot!.logs, f), "utf8")
          .split(END)
          .filter(Boolean)
          .map((record) => record.split(SEP).slice(0, -1)),
      );
    } finally {
      slot.busy = false;
      for (const wake of waiting.splice(0)) wake(); // each looks for a free slot of its own shell again
    }
  };

  return { run, home, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
