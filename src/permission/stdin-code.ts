// Programs that may run what they read on stdin as code: an interpreter (`python3 <<EOF`, `echo '…'
// | node`, and `python3 script.py <<EOF` too, as hey cannot read the script), a shell, a REPL or a
// console that runs commands it reads (`sqlite3 db <<< '.shell id'`, `echo '!rm x' | ed f`), and a
// program told to read its script from `-` (`awk -f -`, `make -f -`). What such a program is given
// on stdin by a heredoc, a here-string or a pipe is no word of the command, so an exact entry
// (`bash: python3 $`), which allows that command and nothing else, does not allow it, and no entry
// is offered for it (advice.ts). A program whose stdin is data (`awk '{print $1}'`, `grep x`) is not
// one; `xargs` is split into the command it runs, which is judged as given a pipe.
// Pure, and imports nothing: match.ts reads it.

/** Interpreters that take their program as an argument or on stdin (`python3 -c`, `perl -e`, `node -e`, `ruby -e`, `php -r`). */
export const INTERPRETER = /^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|node|nodejs|ruby[0-9.]*|deno|bun|php[0-9.]*|lua[0-9.]*|tclsh[0-9.]*|osascript)$/;

/** Shells, which read a script on stdin when given none on their command line. */
const SHELLS = new Set(["sh", "bash", "rbash", "dash", "zsh", "ksh", "mksh", "fish"]);

/**
 * Other programs that run what they read on stdin: interpreters and REPLs (`julia`, `irb`, `R`,
 * `ghci`…), consoles with a shell escape (sqlite3's `.shell`, psql's `\!`, mysql's `system`, gdb's
 * `shell`, ed's and ex's `!`, dc's `!`, ftp's `!`), and programs whose stdin is a list of
 * commands to run (`at`, `batch`, `parallel`) or a crontab.
 */
const RUNS_STDIN = new Set([
  ...[
    "julia",
    "irb",
    "r",
    "rscript",
    "jshell",
    "ghci",
    "guile",
    "racket",
    "sbcl",
    "clisp",
    "scala",
    "groovy",
    "groovysh",
    "wish",
    "expect",
    "erl",
    "iex",
    "ocaml",
  ],
  ...["sqlite3", "psql", "mysql", "mariadb", "gdb", "lldb", "ed", "ex", "dc", "ftp", "sftp", "lftp"],
  ...["at", "batch", "parallel", "crontab"],
  ...["m4", "gnuplot"], // m4's `syscmd`, gnuplot's `system`
]);

/** Programs told by `-f FILE` which script to run (awk's program, sed's script, make's makefile). */
const SCRIPT_FILE = new Set(["awk", "gawk", "mawk", "nawk", "busybox-awk", "sed", "gsed", "make", "gmake"]);

/** Whether `-` or /dev/stdin names the script given by option `-F` (f or s): `awk -f -`, `sed -f /dev/stdin`, `make -f-`, `vim -s -`. */
const fromStdin = (args: string[], f: string) =>
  args.some((a, i) => {
    const file =
      new RegExp(`^-[a-zA-Z]*${f}$`).test(a) || a === "--file" || a === "--makefile"
        ? args[i + 1]
        : new RegExp(`^(-${f}|--file=|--makefile=)(.+)$`).exec(a)?.[2];
    return file !== undefined && STDIN_FILES.has(file);
  });

/** Names of stdin as a file. */
const STDIN_FILES = new Set(["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]);

const VIM = new Set(["vim", "nvim", "vi", "view", "vimdiff", "gvim", "rvim", "nvi"]);
/** ssh's options that take a value (OpenSSH's `ssh(1)` synopsis). */
const SSH_VALUED = /^-[46AaCfGgKkMNnqsTtVvXxYy]*[BbcDEeFIiJLlmOopQRSWw]$/;

/**
 * ssh with no remote command runs a login shell on the host that reads its commands from stdin
 * (`ssh host <<<'rm -rf ~'`); with one, that command is given stdin (`ssh host sh`).
 */
function sshRunsStdin(args: string[]): boolean {
  let i = 0;
  for (; i < args.length && args[i]!.startsWith("-") && args[i] !== "--"; i++) if (SSH_VALUED.test(args[i]!)) i++;
  if (args[i] === "--") i++;
  const [remote, ...rest] = args.slice(i + 1); // after the host
  return remote === undefined || runsStdin(remote.split("/").at(-1)!.toLowerCase(), rest);
}

/**
 * Whether a program (its name as match.ts `program` gives it) may run what it reads on stdin as
 * code; `args`: its words after the name, as written.
 */
export const runsStdin = (name: string, args: string[] = []): boolean =>
  INTERPRETER.test(name) ||
  SHELLS.has(name) ||
  RUNS_STDIN.has(name) ||
  (SCRIPT_FILE.has(name) && fromStdin(args, "f")) ||
  (name === "ssh" && sshRunsStdin(args)) ||
  // vim's `-s -` reads normal-mode keys, `-e`/`-es`/`-E`/`-Es` ex commands (`:!cmd`), from stdin
  (VIM.has(name) && (fromStdin(args, "s") || args.some((a) => /^-[a-zA-Z]*[eE]/.test(a))));
