// Programs that may run what they read on stdin as code: an interpreter (`python3 <<EOF`, `echo '…'
// | node`, and `python3 script.py <<EOF` too, as hey cannot read the script) and a shell. What such
// a program is given on stdin by a heredoc, a here-string or a pipe is no word of the command, so
// an exact entry (`bash: python3 $`), which allows that command and nothing else, does not allow
// it, and no entry is offered for it (advice.ts). A program whose stdin is data (`awk '{print $1}'`,
// `grep x`) is not one; `xargs` is split into the command it runs, which is judged as given a pipe.
// Pure, and imports nothing: match.ts reads it.

/** Interpreters that take their program as an argument or on stdin (`python3 -c`, `perl -e`, `node -e`, `ruby -e`, `php -r`). */
export const INTERPRETER = /^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|node|nodejs|ruby[0-9.]*|deno|bun|php[0-9.]*|lua[0-9.]*|tclsh[0-9.]*|osascript)$/;

/** Shells, which read a script on stdin when given none on their command line. */
const SHELLS = new Set(["sh", "bash", "rbash", "dash", "zsh", "ksh", "mksh", "fish"]);

/** Whether a program (its name as match.ts `program` gives it) may run what it reads on stdin as code. */
export const runsStdin = (name: string) => INTERPRETER.test(name) || SHELLS.has(name);
