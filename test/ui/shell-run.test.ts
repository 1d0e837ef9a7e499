// Running a `!COMMAND` (ui/shell-command.ts runShellCommand): back when the shell exits, whatever
// it left running in the background; after Ctrl-C the command gets a moment to end on its own,
// then its whole tree is ended. Here no terminal sends the SIGINT of a Ctrl-C: the test sends it
// to the command's processes, as the terminal sends it to its foreground group.
import { afterAll, afterEach, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshLine, runShellCommand, type ShellRun } from "../../src/ui/shell-command.ts";
import { tempDir } from "../helpers/e2e.ts";
import { killMarked, marker, withMarker } from "../helpers/processes.ts";
import { found, until } from "../helpers/wait.ts";

const HANG = 20_000;
const sh = { program: "sh", name: "sh", args: (command: string) => ["-c", command] };
const bash = { ...sh, program: "bash", name: "bash" };
const dir = tempDir("hey-shell-run-");
afterAll(() => dir.remove());
const leftovers: string[] = [];
afterEach(() => killMarked(leftovers.splice(0)));

/** A run with its output as the text kept in memory (all of it, for these short outputs). */
const ran = (r: ShellRun) => ({ ...r, output: r.output.head });

/** A unique marker for this test's processes, killed after it. */
const mark = () => {
  const m = marker();
  leftovers.push(m);
  return m;
};

function run(command: string, opts: { shell?: typeof sh; signal?: AbortSignal } = {}) {
  const shown: string[] = [];
  const running = runShellCommand(command, {
    shell: opts.shell ?? sh,
    env: process.env,
    cwd: dir.path,
    signal: opts.signal ?? new AbortController().signal,
    show: (text) => void shown.push(text),
  });
  return { shown, running };
}

/** Ctrl-C as the terminal does it: SIGINT to every process of the command (those carrying `m`), and hey's turn aborted. */
async function interrupt(m: string, abort: AbortController): Promise<void> {
  for (const p of await found(() => (withMarker(m).length > 0 ? withMarker(m) : undefined), `the processes of ${m}`))
    try {
      process.kill(p.pid, "SIGINT");
    } catch {} // gone meanwhile
  abort.abort();
}

test("the output is shown as it comes and kept, stdout and stderr, with the exit code", async () => {
  const { shown, running } = run("echo out; echo err >&2; exit 3");
  const r = await running;
  expect(ran(r)).toEqual({ code: 3, output: expect.stringMatching(/^(out\nerr\n|err\nout\n)$/) });
  expect(shown.join("")).toBe(r.output.head);
});

test(
  "a job left running in the background (`&`) does not hold the run: it returns when the shell exits, and the job runs on",
  async () => {
    const m = mark();
    const { running } = run(`sleep ${m} & echo started`);
    expect(ran(await running)).toEqual({ code: 0, output: "started\n" }); // while the job (minutes long) holds the pipes
    expect(withMarker(m).filter((p) => p.args.startsWith("sleep"))).toHaveLength(1);
  },
  HANG,
);

test(
  "what a background job prints after the shell exited is neither shown nor kept, and the job is not cut off for printing",
  async () => {
    const m = mark();
    const go = join(dir.path, `go-${m}`);
    const done = join(dir.path, `done-${m}`);
    // `: m` puts the marker in the job's command line (a subshell is a fork of the shell)
    const job = `(: ${m}; while [ ! -e "${go}" ]; do sleep 0.05; done; echo late; echo late >&2; touch "${done}") &`;
    const { shown, running } = run(`${job} echo started`);
    expect(ran(await running)).toEqual({ code: 0, output: "started\n" });
    writeFileSync(go, "");
    await until(() => existsSync(done), "the job to print and go on"); // a closed pipe would have killed it at `echo`
    await until(() => withMarker(m).length === 0, "the job to end");
    await Bun.sleep(50); // what it printed has been read by now
    expect(shown.join("")).toBe("started\n");
  },
  HANG,
);

test(
  "Ctrl-C: a command that catches SIGINT and exits 0 is given the time to, and that is how it ended",
  async () => {
    const m = mark();
    const abort = new AbortController();
    const { shown, running } = run(`: ${m}; trap 'echo got SIGINT; exit 0' INT; echo ready; while :; do sleep 0.05; done`, { signal: abort.signal });
    await until(() => shown.join("").includes("ready"), "the command to start");
    await interrupt(m, abort);
    const r = await running;
    expect(ran(r)).toEqual({ code: 0, output: "ready\ngot SIGINT\n" });
  },
  HANG,
);

test.skipIf(!Bun.which("bash"))(
  "Ctrl-C: a program that catches SIGINT and exits 0, run by bash, is reported as exit 0, not killed",
  async () => {
    const m = mark();
    const abort = new AbortController();
    const program = `process.on("SIGINT", () => { console.log("got SIGINT"); process.exit(0); }); console.log("ready ${m}"); setInterval(() => {}, 1000);`;
    const { shown, running } = run(`"${process.execPath}" -e '${program}'; echo "after $?"`, { shell: bash, signal: abort.signal });
    await until(() => shown.join("").includes("ready"), "the program to start");
    await interrupt(m, abort);
    const r = await running;
    expect(r.output.head).toBe(`ready ${m}\ngot SIGINT\nafter 0\n`);
    expect(r.code).toBe(0);
  },
  HANG,
);

test(
  "Ctrl-C: a command that ignores SIGINT is ended after the grace, its whole tree with it",
  async () => {
    const m = mark();
    const abort = new AbortController();
    const { shown, running } = run(`trap '' INT; echo ready; sleep ${m}; echo after`, { signal: abort.signal });
    await until(() => shown.join("").includes("ready"), "the command to start");
    await interrupt(m, abort);
    const r = await running;
    expect(ran(r)).toEqual({ code: undefined, signal: "SIGTERM", output: "ready\n" });
    expect(withMarker(m)).toEqual([]); // the sleep too, which held the pipes open
  },
  HANG,
);

test(
  "Ctrl-C: a tree that ignores SIGTERM as well gets SIGKILL",
  async () => {
    const m = mark();
    const abort = new AbortController();
    const { running } = run(`trap '' INT TERM; sleep ${m} & sleep ${m}`, { signal: abort.signal });
    await interrupt(m, abort);
    const r = await running;
    expect(r.signal).toBe("SIGKILL");
    expect(withMarker(m)).toEqual([]);
  },
  HANG,
);

test(
  "hey exiting while a command runs leaves nothing of it running",
  async () => {
    const m = mark();
    const script = join(dir.path, "exits.ts");
    const now = join(dir.path, `exit-${m}`);
    const module = join(import.meta.dir, "../../src/ui/shell-command.ts");
    // runs a command that ignores INT and TERM, then exits (as hey does on a third Ctrl-C) once told to
    writeFileSync(
      script,
      `import { existsSync } from "node:fs";
       import { runShellCommand } from ${JSON.stringify(module)};
       const shell = { program: "sh", name: "sh", args: (c: string) => ["-c", c] };
       void runShellCommand("trap '' INT TERM; sleep ${m}", { shell, env: process.env, cwd: process.cwd(), signal: new AbortController().signal, show: () => {} });
       setInterval(() => existsSync(${JSON.stringify(now)}) && process.exit(3), 20);`,
    );
    const child = Bun.spawn([process.execPath, script], { cwd: dir.path, stdout: "ignore", stderr: "inherit" });
    await found(() => withMarker(m).find((p) => p.args.startsWith("sleep")), "the sleep to start");
    writeFileSync(now, "");
    expect(await child.exited).toBe(3);
    await until(() => withMarker(m).length === 0, "the sleep to be killed");
  },
  HANG,
);

test("freshLine: a row of spaces as wide as the terminal, a carriage return and a cleared line (a line break only where the width is unknown)", () => {
  expect(freshLine(8)).toBe("        \r\x1b[K");
  expect(freshLine(0)).toBe("\n");
});
