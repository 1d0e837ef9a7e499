// A session through dist/hey on a disk that fills and frees mid-run (SPEC §19). The "disk" is the
// file size limit of the running hey, set with prlimit between two of its requests: the session
// file can grow no further (a write across the limit is cut short, then fails with EFBIG, as a
// full disk cuts a line), then the limit is lifted, as when the user deletes a build directory.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { textOf, type ChatRequest, type Turn } from "../helpers/model-server.ts";

const state = eachTempDir("hey-state-");
const work = eachTempDir("hey-work-");
const home = eachTempDir("hey-home-");

let hey: number | undefined; // the running hey's pid
let fsize: (limit: string) => void = () => {};
const sessionFile = () => {
  const dir = join(state.path, "hey", "sessions");
  return join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!);
};
const script: ((req: ChatRequest) => Turn)[] = [
  () => ({ calls: [["bash", { command: "echo one" }]] }),
  () => {
    fsize(String(readFileSync(sessionFile()).length + 25)); // the disk fills: the next line is cut 25 bytes in
    return { calls: [["bash", { command: "echo two" }]] };
  },
  () => ({ calls: [["bash", { command: "echo three" }]] }),
  () => {
    fsize("unlimited"); // space is freed
    return { text: "all three ran" };
  },
];
const server = fileModelServer((req) => script.shift()?.(req) ?? { text: "noted" });

test("the disk fills mid-run and frees: said once each way, and `hey -c` sends every turn of it", async () => {
  fsize = (limit) => {
    const set = Bun.spawnSync(["prlimit", "--pid", String(hey), `--fsize=${limit}:unlimited`]);
    if (set.exitCode !== 0) throw new Error(`prlimit: ${set.stderr.toString()}`);
  };
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, NO_COLOR: "1", XDG_STATE_HOME: state.path };
  const proc = Bun.spawn([await ensureBinary(), "--base-url", server.baseUrl, "-m", "m", "-p", "run one, two and three"], {
    cwd: work.path,
    env: { ...env, XDG_CONFIG_HOME: join(home.path, ".config"), XDG_CACHE_HOME: join(home.path, ".cache") },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 20_000,
    killSignal: "SIGKILL",
  });
  hey = proc.pid;
  const [stdout, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  expect([code, stdout]).toEqual([0, "all three ran\n"]);
  const file = sessionFile();
  expect(stderr.match(/^hey: session not saved: .*$/gm)).toEqual([
    `hey: session not saved: cannot write ${file}: the file would be larger than this process may write (EFBIG: see \`ulimit -f\`); hey holds what it could not write (up to 32.0 MB) and writes it at the end of a turn once there is space`,
  ]);
  expect(stderr.match(/^hey: session saved again: .*$/gm)).toEqual([
    `hey: session saved again: ${file} takes writes again; wrote the 5 messages and 3 other entries held since the disk was full`,
  ]);
  // every line whole: the one the full disk cut was taken off before the held lines were written
  expect(() =>
    readFileSync(file, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l)),
  ).not.toThrow();

  const continued = await runHey(["--base-url", server.baseUrl, "-m", "m", "-c", "-p", "what ran?"], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path },
  });
  expect([continued.code, continued.stderr]).toEqual([0, expect.stringMatching(/^hey: resumed session \S+ \(8 messages loaded\) · cli\/m\n$/)]); // no line skipped
  const sent = server.requests.at(-1)!.messages.slice(1);
  expect(sent.map((m) => [m.role, m.role === "assistant" ? (m.tool_calls?.map((c) => c.function.arguments).join() ?? textOf(m)) : textOf(m).trim()])).toEqual([
    ["user", "run one, two and three"],
    ["assistant", JSON.stringify({ command: "echo one" })],
    ["tool", expect.stringContaining("one")],
    ["assistant", JSON.stringify({ command: "echo two" })],
    ["tool", expect.stringContaining("two")],
    ["assistant", JSON.stringify({ command: "echo three" })],
    ["tool", expect.stringContaining("three")],
    ["assistant", "all three ran"],
    ["user", "what ran?"],
  ]);
});

test("a header the full disk cut: `-c` passes over a file with nothing after it and names it, `--resume` of it says what is wrong; one with lines after it is resumed even while the disk takes nothing", async () => {
  script.length = 0;
  const run = (args: string[], fileSizeLimitKb?: number) =>
    runHey(["--base-url", server.baseUrl, "-m", "m", ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path }, fileSizeLimitKb });
  expect((await run(["-p", "remember 42"])).code).toBe(0);
  const file = sessionFile();
  const cutId = "0mxzzzzzz0000zzzzzz";
  const cut = join(state.path, "hey", "sessions", `${cutId}.jsonl`);
  const minuteAgo = Date.now() / 1000 - 60;
  utimesSync(file, minuteAgo, minuteAgo);
  writeFileSync(cut, `{"type":"header","id":"${cutId}","cwd":"${work.path}","cre`); // newer than the session: \`-c\` names it
  const why = "its first line, the session header, is cut short — hey stopped while writing it, most often because the disk was full";

  const continued = await run(["-c", "-p", "which number?"]);
  expect(continued.code).toBe(0);
  expect(continued.stderr).toContain(
    `hey: a session file holds only a header cut short — hey stopped while writing it, most often because the disk was full — so there is no conversation to resume: ${cut}; delete it\n`,
  );
  expect(server.requests.at(-1)!.messages.map((m) => textOf(m))).toContain("remember 42");
  const resumed = await run(["--resume", cutId, "-p", "which number?"]);
  expect([resumed.code, resumed.stderr]).toEqual([
    2,
    `hey: ${cut}: ${why} — and nothing was saved after it, so there is no conversation in it to resume; delete it\n`,
  ]);

  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.slice(0, 60) + text.slice(text.indexOf("\n"))); // the header cut, the lines after it whole
  const damaged = readFileSync(file, "utf8");
  const full = await run(["--resume", file.split("/").at(-1)!.replace(".jsonl", ""), "-p", "which number?"], 0); // not even a lock fits
  expect(full.code).toBe(0);
  expect(full.stderr).toContain(
    `hey: ${file}: the session's header is cut short (most often by a full disk) and cannot be repaired now: the file would be larger than this process may write (EFBIG: see \`ulimit -f\`); resumed from the lines after it, as it is`,
  );
  expect(server.requests.at(-1)!.messages.map((m) => textOf(m))).toContain("remember 42");
  expect(readFileSync(file, "utf8")).toBe(damaged);
});
