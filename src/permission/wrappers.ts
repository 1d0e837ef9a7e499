// Programs that run another program given as their arguments (SPEC §8), and how to find where
// that command starts: GNU/util-linux option syntax per program. Options not listed here make the
// command's start unknown, which callers treat as running unknown code (fail closed). Pure data and
// one option reader; shell-commands.ts does the seeing through.
import type { Word } from "./shell-words.ts";

export interface Wrapper {
  /** short options without an argument */
  flags: string;
  /** short options taking an argument, attached (`-n5`) or next */
  withArg?: string;
  /** short options whose argument can only be attached (`prlimit -n1024`, `nsenter -m/proc/1/ns/mnt`) */
  optional?: string;
  /** long options; a trailing "=" marks one taking an argument (`--name=v` or `--name v`) */
  long?: string[];
  /** operands before the options (setarch's architecture) */
  leading?: number;
  /** operands between the options and the command: timeout's duration, flock's lock file */
  operands?: number;
  /** NAME=value operands before the command are its environment (env, sudo) */
  env?: boolean;
  /** options after which no command follows (`command -v`, `sudo -l`, `taskset -p`) */
  noCommand?: string[];
  /**
   * options that make it run a string (or the rest) through $SHELL or its own splitter
   * (`sudo -s`, `env -S`, `script -c`, `flock FILE -c`): code whose reader hey does not know
   */
  opaque?: string[];
  /** with no command it starts an interactive shell, which reads its commands from stdin */
  bareShell?: boolean;
  /** a command starting with one of these runs the next word through $SHELL (`flock FILE -c STR`) */
  shellWords?: string[];
}

const XARGS_LONG = ["null", "arg-file=", "delimiter=", "eof=", "replace", "max-lines=", "max-args=", "max-procs=", "max-chars="];
const NS = ["mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time"]; // `--net` or `--net=FILE`
const PRLIMIT = ["core", "data", "nice", "fsize", "sigpending", "memlock", "rss", "nofile", "msgqueue", "rtprio", "stack", "cpu", "nproc", "as", "locks", "rttime"];
const SETARCH: Wrapper = {
  flags: "BFILRSTXZ3v",
  long: ["32bit", "fdpic-funcptrs", "short-inode", "addr-compat-layout", "addr-no-randomize", "whole-seconds", "sticky-timeouts", "read-implies-exec", "mmap-page-zero", "3gb", "4gb", "uname-2.6", "verbose"],
  noCommand: ["list"],
  bareShell: true,
};

/** By program name (the basename of the command word). */
export const WRAPPERS: Record<string, Wrapper> = {
  // the shell's own
  command: { flags: "pvV", noCommand: ["v", "V"] },
  builtin: { flags: "" },
  exec: { flags: "cl", withArg: "a" },
  time: { flags: "pvqa", withArg: "fo", long: ["format=", "output=", "append", "verbose", "portability", "quiet"] },
  // coreutils
  env: {
    ...{ flags: "-i0v", withArg: "uCS", long: ["ignore-environment", "null", "debug", "unset=", "chdir=", "split-string=", "block-signal", "default-signal", "ignore-signal", "list-signal-handling"] },
    ...{ env: true, opaque: ["S", "split-string"] },
  },
  timeout: { flags: "v", withArg: "sk", long: ["signal=", "kill-after=", "preserve-status", "foreground", "verbose"], operands: 1 },
  nice: { flags: "0123456789", withArg: "n", long: ["adjustment="] }, // `nice -10 cmd`
  nohup: { flags: "" },
  stdbuf: { flags: "", withArg: "ioe", long: ["input=", "output=", "error="] },
  chroot: { flags: "", long: ["groups=", "userspec=", "skip-chdir"], operands: 1, bareShell: true },
  xargs: { flags: "0prtxie", withArg: "IaEdLnPs", long: [...XARGS_LONG, "interactive", "no-run-if-empty", "verbose", "exit", "open-tty", "process-slot-var="] },
  // privileges
  sudo: {
    ...{ flags: "AbEHiKklnPSsVve", withArg: "CDghpRrTtUu", env: true, opaque: ["s", "i", "shell", "login"] },
    long: ["user=", "group=", "chdir=", "host=", "prompt=", "role=", "type=", "other-user=", "close-from=", "command-timeout=", "preserve-env", "login", "shell", "non-interactive", "background", "stdin", "set-home", "edit", "list", "validate", "version", "remove-timestamp", "reset-timestamp"],
    noCommand: ["e", "l", "v", "V", "K", "edit", "list", "validate", "version", "remove-timestamp"],
  },
  doas: { flags: "nsL", withArg: "uC", noCommand: ["L", "C"], opaque: ["s"] },
  // util-linux
  chrt: {
    ...{ flags: "abdefiomprRv", withArg: "TPD", noCommand: ["m", "max", "p", "pid"], operands: 1 },
    long: ["all-tasks", "batch", "deadline", "fifo", "idle", "other", "rr", "reset-on-fork", "verbose", "max", "pid", "sched-runtime=", "sched-period=", "sched-deadline="],
  },
  choom: { flags: "", withArg: "np", long: ["adjust=", "pid="], noCommand: ["p", "pid"] },
  enosys: { flags: "lmd", withArg: "si", long: ["syscall=", "ioctl="], noCommand: ["l", "m", "d", "list", "list-ioctl", "dump"] },
  flock: { flags: "sexnoFu", withArg: "wE", long: ["shared", "exclusive", "unlock", "nonblock", "timeout=", "conflict-exit-code=", "close", "no-fork", "verbose"], operands: 1, shellWords: ["-c", "--command"] },
  ionice: { flags: "t", withArg: "cnpPu", long: ["class=", "classdata=", "pid=", "pgid=", "uid=", "ignore"], noCommand: ["p", "P", "u", "pid", "pgid", "uid"] },
  nsenter: { flags: "aFZ", withArg: "tSGW", optional: "muinpCUTrw", long: [...NS, "root", "wd", "target=", "setuid=", "setgid=", "wdns=", "all", "preserve-credentials", "no-fork", "follow-context"], bareShell: true },
  pipesz: { flags: "gioecqv", withArg: "sfn", long: ["get", "set=", "file=", "fd=", "stdin", "stdout", "stderr", "check", "quiet", "verbose"] },
  prlimit: { flags: "", withArg: "po", optional: "cdefilmnqrstuvxy", long: [...PRLIMIT, "pid=", "output=", "noheadings", "raw", "verbose"], noCommand: ["p", "pid"] },
  // its operand is the log file; without -c it runs an interactive $SHELL
  script: {
    ...{ flags: "aefq", withArg: "IOBTmEoc", optional: "t", operands: 1, opaque: ["c", "command"], bareShell: true },
    long: ["log-in=", "log-out=", "log-io=", "log-timing=", "timing", "logging-format=", "append", "command=", "return", "flush", "force", "echo=", "output-limit=", "quiet"],
  },
  setarch: { ...SETARCH, leading: 1 },
  setpgid: { flags: "f", long: ["foreground"] },
  setpriv: {
    flags: "d",
    long: ["dump", "nnp", "no-new-privs", "ambient-caps=", "inh-caps=", "bounding-set=", "ruid=", "euid=", "rgid=", "egid=", "reuid=", "regid=", "clear-groups", "keep-groups", "init-groups", "groups=", "securebits=", "pdeathsig=", "selinux-label=", "apparmor-profile=", "landlock-access=", "landlock-rule=", "seccomp-filter=", "reset-env"],
    noCommand: ["d", "dump"],
  },
  setsid: { flags: "cfw", long: ["ctty", "fork", "wait"] },
  taskset: { flags: "acp", long: ["all-tasks", "cpu-list", "pid"], noCommand: ["p", "pid"], operands: 1 },
  uclampset: { flags: "asRv", withArg: "mMp", long: ["all-tasks", "pid=", "system", "reset-on-fork", "verbose"], noCommand: ["p", "pid", "s", "system"] },
  unshare: {
    ...{ flags: "frc", withArg: "RwSG", optional: "muinpUCT", bareShell: true },
    long: [...NS, "fork", "map-user=", "map-group=", "map-root-user", "map-current-user", "map-auto", "map-users=", "map-groups=", "kill-child", "mount-proc", "propagation=", "setgroups=", "keep-caps", "root=", "wd=", "setuid=", "setgid=", "monotonic=", "boottime=", "mount-binfmt"],
  },
  // others that run what follows them
  busybox: { flags: "" },
  strace: { flags: "cCdDfFhiknNqrtTvVwxyYzZ", withArg: "abeEIoOpPsSuUX", long: ["output=", "trace=", "signal=", "status=", "env=", "user=", "follow-forks", "summary-only", "no-abbrev", "decode-fds", "decode-pids"] },
};
for (const alias of ["linux32", "linux64", "i386", "i686", "x86_64", "uname26", "aarch64", "arm64"]) WRAPPERS[alias] = SETARCH;

const literal = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });

/**
 * Leading options per `spec`, from `words[start]` on: where the operands start, and the options
 * seen (with their values). Undefined when unsure (an unknown option, or one whose value is missing
 * or known only at run time).
 */
export function readOptions(words: Word[], spec: Wrapper, start: number, plus: boolean): { k: number; seen: Map<string, Word | null> } | undefined {
  const seen = new Map<string, Word | null>();
  let k = start;
  for (; k < words.length; k++) {
    const w = words[k]!;
    const t = w.text;
    if (w.unknown || w.glob) return undefined; // might be an option, might be the command
    if (t === "--") return { k: k + 1, seen };
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = t.slice(2, eq < 0 ? undefined : eq);
      if (spec.long?.includes(name)) seen.set(name, eq < 0 ? null : literal(t.slice(eq + 1)));
      else if (spec.long?.includes(name + "=")) {
        const value = eq < 0 ? words[++k] : literal(t.slice(eq + 1));
        if (!value || value.unknown || value.glob) return undefined;
        seen.set(name, value);
      } else return undefined;
      continue;
    }
    if (t === "-" && spec.flags.includes("-")) {
      seen.set("-", null);
      continue;
    }
    if (t.length < 2 || !(t.startsWith("-") || (plus && t.startsWith("+")))) break;
    for (let j = 1; j < t.length; j++) {
      const ch = t[j]!;
      if (spec.flags.includes(ch)) seen.set(ch, null);
      else if (spec.optional?.includes(ch)) {
        seen.set(ch, j + 1 < t.length ? literal(t.slice(j + 1)) : null);
        break;
      } else if (spec.withArg?.includes(ch)) {
        const value = j + 1 < t.length ? literal(t.slice(j + 1)) : words[++k];
        if (!value || value.unknown || value.glob) return undefined;
        seen.set(ch, value);
        break;
      } else return undefined;
    }
  }
  return { k, seen };
}
