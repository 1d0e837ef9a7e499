// Programs that run another program given as their arguments (SPEC §8), and how to find where
// that command starts: each program's own option syntax (GNU getopt_long, util-linux, sudo), read by
// options.ts. Options not listed here make the command's start unknown, which callers treat as
// running unknown code (fail closed). Pure data; shell-commands.ts does the seeing through.
import type { Options } from "./options.ts";

export interface Wrapper extends Options {
  /** operands before the options (setarch's architecture) */
  leading?: number;
  /** operands between the options and the command: timeout's duration, flock's lock file */
  operands?: number;
  /** NAME=value operands before the command are its environment (env, sudo) */
  env?: boolean;
  /** options after which no command follows (`command -v`, `sudo -l`, `taskset -p`) */
  noCommand?: string[];
  /**
   * options that make it run code the rules cannot see: a string through $SHELL or its own splitter
   * (`sudo -s`, `env -S`, `flock FILE -c`), an editor or helper named by the environment (`sudo -e`
   * runs $SUDO_EDITOR, `sudo -A` $SUDO_ASKPASS), a library loaded into the command (`fakeroot -l`)
   */
  opaque?: string[];
  /** with no command it starts an interactive shell, which reads its commands from stdin */
  bareShell?: boolean;
  /** with no command it runs this one (`xargs` runs `echo`) */
  defaultCommand?: string;
  /** a command starting with one of these runs the next word through $SHELL (`flock FILE -c STR`) */
  shellWords?: string[];
  /** options that run the command in another directory or root (`env -C`, `sudo -D`); "always": every command (chroot) */
  chdir?: string[] | "always";
}

// GNU findutils: --eof, --replace and --max-lines take a value only as `--eof=STR` (-e, -i, -l attached)
const XARGS_LONG = [
  "null",
  "arg-file=",
  "delimiter=",
  "eof",
  "replace",
  "max-lines",
  "max-args=",
  "max-procs=",
  "max-chars=",
  "show-limits",
  "help",
  "version",
];
const NS = ["mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time"]; // `--net` or `--net=FILE`
const PRLIMIT = [
  "core",
  "data",
  "nice",
  "fsize",
  "sigpending",
  "memlock",
  "rss",
  "nofile",
  "msgqueue",
  "rtprio",
  "stack",
  "cpu",
  "nproc",
  "as",
  "locks",
  "rttime",
];
const SETARCH: Wrapper = {
  flags: "BFILRSTXZ3v",
  long: [
    "32bit",
    "fdpic-funcptrs",
    "short-inode",
    "addr-compat-layout",
    "addr-no-randomize",
    "whole-seconds",
    "sticky-timeouts",
    "read-implies-exec",
    "mmap-page-zero",
    "3gb",
    "4gb",
    "uname-2.6",
    "verbose",
  ],
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
    ...{
      flags: "-i0v",
      withArg: "uCS",
      long: [
        "ignore-environment",
        "null",
        "debug",
        "unset=",
        "chdir=",
        "split-string=",
        "block-signal",
        "default-signal",
        "ignore-signal",
        "list-signal-handling",
      ],
    },
    ...{ env: true, opaque: ["S", "split-string"], chdir: ["C", "chdir"] },
  },
  timeout: { flags: "v", withArg: "sk", long: ["signal=", "kill-after=", "preserve-status", "foreground", "verbose"], operands: 1 },
  nice: { flags: "0123456789", withArg: "n", long: ["adjustment="] }, // `nice -10 cmd`
  nohup: { flags: "" },
  stdbuf: { flags: "", withArg: "ioe", long: ["input=", "output=", "error="] },
  chroot: { flags: "", long: ["groups=", "userspec=", "skip-chdir"], operands: 1, bareShell: true, chdir: "always" },
  xargs: {
    ...{
      flags: "0prtxo",
      withArg: "IaEdLnPs",
      optional: "eil",
      long: [...XARGS_LONG, "interactive", "no-run-if-empty", "verbose", "exit", "open-tty", "process-slot-var="],
    },
    ...{ noCommand: ["help", "version"], defaultCommand: "echo" },
  },
  // privileges
  // sudo 1.9: `VAR=value` words may come among the options (`sudo VAR=1 -u root cmd`); -e edits
  // files with $SUDO_EDITOR/$VISUAL/$EDITOR, -A asks $SUDO_ASKPASS for the password
  sudo: {
    ...{ flags: "ABbEeHiKklnNPSsVv", withArg: "CDgpRrTtUu", optional: "h", env: true, envAmongOptions: true },
    ...{
      opaque: ["s", "i", "e", "A", "shell", "login", "edit", "askpass"],
      noCommand: ["l", "v", "V", "K", "h", "list", "validate", "version", "remove-timestamp", "help"],
      chdir: ["D", "chdir", "R", "chroot"],
    },
    long: [
      ...["askpass", "background", "bell", "close-from=", "chdir=", "preserve-env", "edit", "group=", "set-home", "help", "host=", "login", "remove-timestamp"],
      ...[
        "reset-timestamp",
        "list",
        "non-interactive",
        "preserve-groups",
        "prompt=",
        "chroot=",
        "role=",
        "stdin",
        "shell",
        "type=",
        "command-timeout=",
        "other-user=",
        "user=",
        "version",
        "validate",
      ],
    ],
  },
  doas: { flags: "nsL", withArg: "uC", noCommand: ["L", "C"], opaque: ["s"] },
  // util-linux
  chrt: {
    ...{ flags: "abdefiomprRv", withArg: "TPD", noCommand: ["m", "max", "p", "pid"], operands: 1 },
    long: [
      "all-tasks",
      "batch",
      "deadline",
      "fifo",
      "idle",
      "other",
      "rr",
      "reset-on-fork",
      "verbose",
      "max",
      "pid",
      "sched-runtime=",
      "sched-period=",
      "sched-deadline=",
    ],
  },
  choom: { flags: "", withArg: "np", long: ["adjust=", "pid="], noCommand: ["p", "pid"], permute: true },
  enosys: { flags: "lmd", withArg: "si", long: ["syscall=", "ioctl="], noCommand: ["l", "m", "d", "list", "list-ioctl", "dump"] },
  flock: {
    flags: "sexnoFu",
    withArg: "wE",
    long: ["shared", "exclusive", "unlock", "nonblock", "timeout=", "conflict-exit-code=", "close", "no-fork", "verbose"],
    operands: 1,
    shellWords: ["-c", "--command"],
  },
  ionice: { flags: "t", withArg: "cnpPu", long: ["class=", "classdata=", "pid=", "pgid=", "uid=", "ignore"], noCommand: ["p", "P", "u", "pid", "pgid", "uid"] },
  nsenter: {
    flags: "aFZ",
    withArg: "tSGW",
    optional: "muinpCUTrw",
    long: [...NS, "root", "wd", "target=", "setuid=", "setgid=", "wdns=", "all", "preserve-credentials", "no-fork", "follow-context"],
    ...{ bareShell: true, chdir: ["r", "root", "w", "wd", "wdns"] },
  },
  pipesz: { flags: "gioecqv", withArg: "sfn", long: ["get", "set=", "file=", "fd=", "stdin", "stdout", "stderr", "check", "quiet", "verbose"] },
  prlimit: {
    flags: "",
    withArg: "po",
    optional: "cdefilmnqrstuvxy",
    long: [...PRLIMIT, "pid=", "output=", "noheadings", "raw", "verbose"],
    noCommand: ["p", "pid"],
  },
  // util-linux script permutes: `script LOG -c CMD` runs CMD through $SHELL; without -c it runs an interactive $SHELL
  script: {
    ...{
      flags: "aefqhV",
      withArg: "IOBTmEoc",
      optional: "t",
      permute: true,
      operands: 1,
      opaque: ["c", "command"],
      bareShell: true,
      noCommand: ["h", "V", "help", "version"],
    },
    long: [
      "log-in=",
      "log-out=",
      "log-io=",
      "log-timing=",
      "timing",
      "logging-format=",
      "append",
      "command=",
      "return",
      "flush",
      "force",
      "echo=",
      "output-limit=",
      "quiet",
      "help",
      "version",
    ],
  },
  setarch: { ...SETARCH, leading: 1 },
  setpgid: { flags: "f", long: ["foreground"] },
  setpriv: {
    flags: "d",
    long: [
      "dump",
      "nnp",
      "no-new-privs",
      "ambient-caps=",
      "inh-caps=",
      "bounding-set=",
      "ruid=",
      "euid=",
      "rgid=",
      "egid=",
      "reuid=",
      "regid=",
      "clear-groups",
      "keep-groups",
      "init-groups",
      "groups=",
      "securebits=",
      "pdeathsig=",
      "selinux-label=",
      "apparmor-profile=",
      "landlock-access=",
      "landlock-rule=",
      "seccomp-filter=",
      "reset-env",
    ],
    noCommand: ["d", "dump"],
  },
  setsid: { flags: "cfw", long: ["ctty", "fork", "wait"] },
  taskset: { flags: "acp", long: ["all-tasks", "cpu-list", "pid"], noCommand: ["p", "pid"], operands: 1 },
  uclampset: { flags: "asRv", withArg: "mMp", long: ["all-tasks", "pid=", "system", "reset-on-fork", "verbose"], noCommand: ["p", "pid", "s", "system"] },
  unshare: {
    ...{ flags: "frc", withArg: "RwSG", optional: "muinpUCT", bareShell: true, chdir: ["R", "root", "w", "wd"] },
    long: [
      ...NS,
      "fork",
      "map-user=",
      "map-group=",
      "map-root-user",
      "map-current-user",
      "map-auto",
      "map-users=",
      "map-groups=",
      "kill-child",
      "mount-proc",
      "propagation=",
      "setgroups=",
      "keep-caps",
      "root=",
      "wd=",
      "setuid=",
      "setgid=",
      "monotonic=",
      "boottime=",
      "mount-binfmt",
    ],
  },
  // others that run what follows them
  busybox: { flags: "" },
  strace: {
    flags: "cCdDfFhiknNqrtTvVwxyYzZ",
    withArg: "abeEIoOpPsSuUX",
    long: ["output=", "trace=", "signal=", "status=", "env=", "user=", "follow-forks", "summary-only", "no-abbrev", "decode-fds", "decode-pids"],
  },
  ltrace: {
    flags: "bcCfhiLrStTV",
    withArg: "aAeEFlnopsuwx",
    long: ["align=", "demangle", "help", "indent=", "library=", "output=", "version"],
    noCommand: ["h", "V", "help", "version"],
  },
  "ssh-agent": { flags: "csDdk", withArg: "aEOPt", noCommand: ["k"] }, // OpenSSH: `ssh-agent [options] [command [arg …]]`
  logsave: { flags: "asv", operands: 1 }, // e2fsprogs: `logsave [-asv] LOGFILE cmd [args]`
  fakeroot: {
    flags: "uhv",
    withArg: "lsib",
    long: ["lib=", "faked=", "unknown-is-real", "help", "version"],
    opaque: ["l", "lib", "faked"],
    noCommand: ["h", "v", "help", "version"],
    bareShell: true,
  },
  "dbus-run-session": {
    flags: "",
    long: ["config-file=", "dbus-daemon=", "help", "version"],
    opaque: ["dbus-daemon"],
    noCommand: ["help", "version"],
    bareShell: true,
  },
  "dbus-launch": {
    flags: "",
    long: ["exit-with-session", "exit-with-x11", "autolaunch=", "binary-syntax", "close-stderr", "csh-syntax", "sh-syntax", "config-file=", "version"],
    noCommand: ["version"],
  },
  eatmydata: { flags: "" },
  nocache: { flags: "" },
  catchsegv: { flags: "" },
  unbuffer: { flags: "p" },
  torsocks: {
    flags: "qdhiT",
    withArg: "uaP",
    long: ["user=", "pass=", "address=", "port=", "isolate", "help", "version"],
    noCommand: ["h", "help", "version"],
    bareShell: true,
  },
  proxychains: { flags: "q", withArg: "f" },
  proxychains4: { flags: "q", withArg: "f" },
  // valgrind's options are all one word (`--tool=memcheck`); the first other word is the program
  valgrind: { flags: "hvqd", anyLong: true, noCommand: ["h", "help", "version"] },
};
/** The dynamic loader run as a program: `ld-linux-x86-64.so.2 [options] PROGRAM [args]`; --audit and --preload load code. */
export const LOADER: Wrapper = {
  flags: "",
  long: [
    "list",
    "verify",
    "library-path=",
    "inhibit-cache",
    "inhibit-rpath=",
    "audit=",
    "preload=",
    "argv0=",
    "glibc-hwcaps-prefix=",
    "glibc-hwcaps-mask=",
    "list-tunables",
    "list-diagnostics",
    "help",
    "version",
  ],
  exactLong: true,
  ...{ opaque: ["audit", "preload"], noCommand: ["list", "verify", "list-tunables", "list-diagnostics", "help", "version"] },
};
/** Names the dynamic loader goes by: ld-linux-x86-64.so.2, ld-linux-aarch64.so.1, ld.so, ld-musl-x86_64.so.1… */
export const LOADER_NAME = /^(ld-linux[\w.-]*\.so(\.\d+)*|ld(64)?\.so(\.\d+)*|ld-musl-[\w.-]*\.so(\.\d+)*)$/;
for (const alias of ["linux32", "linux64", "i386", "i686", "x86_64", "uname26", "aarch64", "arm64"]) WRAPPERS[alias] = SETARCH;
