// Inside sandbox.sh: runs each command of the corpus under one shell and prints, per command, one
// JSON line {"i": INDEX, "run": [ARGV…], "timeout"?: true} with the argv of every program executed
// (logged by the stubs, in no particular order). Each command gets a fresh working directory and
// HOME, stdin from /dev/null and no terminal; everything it leaves running is killed before the next.
//   bun driver.ts SHELL COMMANDS.jsonl > RECORD.jsonl
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const RUN_TIMEOUT_MS = 5_000; // the stubs return at once; only a real find over / or a daemon takes long
const DRAIN_MS = 500; // programs the command left behind may still hold its pipe
const BOX = "/tmp/box";
const PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"; // every one of them holds the stubs
/** Files the corpus's placeholders name (extract.ts), so commands that look for them find some. */
const FILES: Record<string, string> = {
  "notes.txt": "a line\n",
  "file.txt": "a\nb\n",
  "src/main.c": "int main(void) { return 0; }\n",
  "docs/README.md": "# docs\n",
};

const [shell, commandsPath] = process.argv.slice(2);
const commands = readFileSync(commandsPath!, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l).c as string);

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

function fresh(): void {
  for (const d of ["cwd", "home", "logs"]) {
    rmSync(`${BOX}/${d}`, { recursive: true, force: true });
    mkdirSync(`${BOX}/${d}`, { recursive: true });
  }
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(`${BOX}/cwd/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
    writeFileSync(`${BOX}/cwd/${name}`, text);
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

for (let i = 0; i < commands.length; i++) {
  fresh();
  const proc = Bun.spawn({
    cmd: [`/tmp/real/bin/${shell}`, "-c", commands[i]!],
    cwd: `${BOX}/cwd`,
    env: { PATH, HOME: `${BOX}/home`, SHELL: "/bin/sh", LC_ALL: "C.UTF-8", USER: "root", LOGNAME: "root" },
    stdio: ["ignore", "ignore", process.env.RECORD_DEBUG ? "inherit" : "ignore", "pipe"],
  });
  const drained = Bun.file(proc.stdio[3] as number)
    .text()
    .catch(() => "");
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(RUN_TIMEOUT_MS).then(() => false)]);
  if (exited) await Promise.race([drained, Bun.sleep(DRAIN_MS)]);
  killOthers();
  await proc.exited;
  const line: { i: number; run: string[][]; timeout?: true } = { i, run: logged() };
  if (!exited) line.timeout = true;
  process.stdout.write(JSON.stringify(line) + "\n");
}
process.exit(0);
