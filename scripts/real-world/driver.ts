// Inside sandbox.sh: runs each command of the corpus under one shell and prints, per command, one
// JSON line {"i": INDEX, "run": [ARGV…], "tried": [NAME…], "timeout"?: true}: the argv of every
// program executed (logged by the stubs, in no particular order), and the names of the programs
// the command tried to run whether they were found or not — the execve(2) calls strace sees in a
// second run (a missing program, a path that is no file, a script the command wrote itself; see
// `traced`), and every "not found" the shells print (both look a name up on PATH without calling
// execve). Each command gets a fresh working directory and HOME, stdin from /dev/null and no
// terminal; everything it leaves running is killed before the next.
//   bun driver.ts SHELL COMMANDS.jsonl > RECORD.jsonl
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const RUN_TIMEOUT_MS = 5_000; // the stubs return at once; only a real find over / or a daemon takes long
const DRAIN_MS = 500; // programs the command left behind may still hold its pipe
const BOX = "/tmp/box";
const REAL = "/tmp/real"; // the real /usr: programs run from here are the pass-through stubs' own (logged by name already)
const TRACE = `${BOX}/trace`;
const PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"; // every one of them holds the stubs
/** Files the corpus's placeholders name (extract.ts), so commands that look for them find some. */
const FILES: Record<string, string> = {
  "notes.txt": "a line\n",
  "file.txt": "a\nb\n",
  "src/main.c": "int main(void) { return 0; }\n",
  "docs/README.md": "# docs\n",
};
/**
 * The environment mvdan/sh's interpreter tests give their scripts (interp_test.go's TestMain and
 * internal.TestMainSetup): `$ENV_PROG` is env, `$GOSH_PROG` the test binary itself (a stub named
 * interp.test here), so `$ENV_PROG | grep …` runs env as it does there.
 */
const MVDAN_ENV: Record<string, string> = {
  ENV_PROG: "env",
  GOSH_PROG: "/usr/bin/interp.test",
  PATH_PROG: "sh",
  INTERP_GLOBAL: "value",
  MULTILINE_INTERP_GLOBAL: "\nwith\nnewlines\n\n",
  MIXEDCASE_INTERP_GLOBAL: "value",
  GO_TEST_DIR: `${BOX}/cwd`,
  LANGUAGE: "C.UTF-8",
};
/** What bash and dash (any $0) print for a command name they found nowhere on PATH, or a path that is no program. */
const NOT_FOUND = [/^.*?: line \d+: (.+): command not found$/gm, /^.*?: \d+: (.+): not found$/gm];

const [shell, commandsPath] = process.argv.slice(2);
const commands = readFileSync(commandsPath!, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { c: string; src: string });

/** SIGKILL to every process of the namespace but pid 1 (the shell reaping orphans) and this one. */
function killOthers(): void {
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === 1 || pid === process.pid) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
}

/**
 * A fresh working directory and HOME. A tldr example reads files it expects to exist (`docker <
 * image_file.tar image load`) and writes into directories it expects (`> path/to/out.pam`): the
 * relative ones it names are made (empty), so that the program runs as the page says instead of
 * the redirection failing before the shell tries it.
 */
function fresh(command: { c: string; src: string }): void {
  for (const d of ["cwd", "home", "logs"]) {
    rmSync(`${BOX}/${d}`, { recursive: true, force: true });
    mkdirSync(`${BOX}/${d}`, { recursive: true });
  }
  rmSync(TRACE, { recursive: true, force: true });
  mkdirSync(TRACE);
  const files = { ...FILES };
  if (command.src.startsWith("tldr:")) {
    for (const m of command.c.matchAll(/(?<![<>&])[0-9]?<(?![<&(>])\s*([A-Za-z0-9_][\w./-]*)/g)) if (!m[1]!.includes("..")) files[m[1]!] ??= "";
    for (const m of command.c.matchAll(/(?<![<>&])[0-9&]?>>?\|?\s*([A-Za-z0-9_][\w.-]*(\/[\w.-]+)*)\/[\w.-]+/g))
      if (!m[1]!.includes("..")) mkdirSync(`${BOX}/cwd/${m[1]}`, { recursive: true });
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(`${BOX}/cwd/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
    if (!existsSync(`${BOX}/cwd/${name}`)) writeFileSync(`${BOX}/cwd/${name}`, text);
  }
}

function logged(): string[][] {
  return readdirSync(`${BOX}/logs`).flatMap((f) =>
    readFileSync(`${BOX}/logs/${f}`, "latin1")
      .split("\x1e")
      .filter(Boolean)
      .map((record) => record.split("\x1f").slice(0, -1)),
  );
}

/** One of strace's escapes (`\\n`, `\\x1b`, `\\0`…), without its backslash. */
function decode(e: string): string {
  if (e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
  if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
  return ({ n: "\n", t: "\t", r: "\r", v: "\v", f: "\f" } as Record<string, string>)[e] ?? e;
}

/** The quoted strings of strace's `"…", "…"` list at `at`, decoded, and where the list ends. */
function strings(line: string, at: number): { list: string[]; end: number } {
  const list: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"(?:\.\.\.)?(, )?/y;
  let end = at;
  for (re.lastIndex = at; ; ) {
    const m = re.exec(line);
    if (!m) break;
    end = re.lastIndex;
    list.push(m[1]!.replace(/\\(x[0-9a-f]{2}|[0-7]{1,3}|.)/g, (_, e: string) => decode(e)));
    if (!m[2]) break;
  }
  return { list, end };
}

/**
 * The programs the command tried to execute, found or not, from strace's per-process files: each
 * execve is attributed to the program the process was running (a child inherits its parent's).
 * A shell's attempts all count; another program's only when it names the program in its argv (env,
 * xargs, sudo… running the command they were given), not a program's own helpers (gdb's iconv,
 * valgrind's tool, PAM's unix_chkpwd), which allowing that program allows by design. The real
 * programs the pass-through stubs run are theirs, logged by name already.
 */
function traced(): string[] {
  if (!existsSync(TRACE)) return [];
  const files = new Map(readdirSync(TRACE).map((f) => [Number(f.slice(f.lastIndexOf(".") + 1)), readFileSync(`${TRACE}/${f}`, "latin1").split("\n")]));
  const children = new Set([...files.values()].flatMap((lines) => lines.flatMap((l) => /^(clone3?|v?fork)\(.*\)\s+= (\d+)$/.exec(l)?.[2] ?? []).map(Number)));
  const names: string[] = [];
  const walk = (pid: number, program: string, argv: string[]): void => {
    for (const line of files.get(pid) ?? []) {
      const child = /^(clone3?|v?fork)\(.*\)\s+= (\d+)$/.exec(line);
      if (child) walk(Number(child[2]), program, argv);
      const exec = /^execve(at)?\((?:[^,"]*, )?/.exec(line);
      if (!exec) continue;
      const target = strings(line, exec[0].length);
      const path = target.list[0] ?? "";
      const args = line[target.end] === "[" ? strings(line, target.end + 1).list : [];
      const name = path.slice(path.lastIndexOf("/") + 1);
      const shell = program === `${REAL}/bin/dash` || program === `${REAL}/bin/bash`;
      if (!path.startsWith(`${REAL}/`) && program && (shell || argv.some((a) => a === path || a === name || a.endsWith(`/${name}`)))) names.push(name);
      if (/\)\s+= 0$/.test(line)) [program, argv] = [path, args];
    }
  };
  for (const pid of files.keys()) if (!children.has(pid)) walk(pid, "", []);
  if (process.env.RECORD_DEBUG === "trace")
    for (const [pid, lines] of files) process.stderr.write(`${pid}${children.has(pid) ? "" : " (root)"}:\n${lines.map((l) => l.slice(0, 160)).join("\n")}\n`);
  return names;
}

/** Runs `command` under the shell (under strace when `trace`); resolves to whether it exited in time, and its stderr. */
async function run(command: { c: string; src: string }, trace: boolean): Promise<{ exited: boolean; stderr: string }> {
  const sh = [`${REAL}/bin/${shell}`, "-c", command.c];
  const env = {
    PATH,
    HOME: `${BOX}/home`,
    SHELL: "/bin/sh",
    LC_ALL: "C.UTF-8",
    USER: "root",
    LOGNAME: "root",
    ...(command.src.startsWith("mvdan-sh") ? MVDAN_ENV : {}),
  };
  const proc = Bun.spawn({
    cmd: trace
      ? [
          `${REAL}/bin/strace`,
          "-ff",
          "-qq",
          "-v",
          "-e",
          "trace=execve,execveat,clone,clone3,fork,vfork",
          "-e",
          "signal=none",
          "-s",
          "4096",
          "-o",
          `${TRACE}/t`,
          "--",
          ...sh,
        ]
      : sh,
    cwd: `${BOX}/cwd`,
    env,
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  const stderr = new Response(proc.stderr).text().catch(() => "");
  const drained = Bun.file(proc.stdio[3] as number)
    .text()
    .catch(() => "");
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(RUN_TIMEOUT_MS).then(() => false)]);
  if (exited) await Promise.race([Promise.all([drained, stderr]), Bun.sleep(DRAIN_MS)]);
  killOthers();
  await proc.exited;
  const text = await Promise.race([stderr, Bun.sleep(DRAIN_MS).then(() => "")]);
  if (process.env.RECORD_DEBUG) process.stderr.write(text);
  return { exited, stderr: text };
}

for (let i = 0; i < commands.length; i++) {
  const command = commands[i]!;
  fresh(command);
  const plain = await run(command, false);
  const run1 = logged();
  fresh(command);
  const traceRun = await run(command, true);
  const missing = [plain.stderr, traceRun.stderr].flatMap((e) =>
    NOT_FOUND.flatMap((re) => [...e.matchAll(re)].map((m) => m[1]!.slice(m[1]!.lastIndexOf("/") + 1))),
  );
  const tried = new Set([...traced(), ...missing]);
  const line: { i: number; run: string[][]; tried: string[]; timeout?: true } = { i, run: run1, tried: [...tried].sort() };
  if (!plain.exited) line.timeout = true;
  process.stdout.write(JSON.stringify(line) + "\n");
}
process.exit(0);
