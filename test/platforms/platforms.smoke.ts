// npm run test:platforms (issue 29): the release builds of two platforms this machine is not,
// cross-compiled with their embedded ripgrep, run end to end against a loopback mock model —
// linux-arm64 under qemu-user, windows-x64 under Wine 10 (test/platforms/runners.ts says how).
// On each: --version; a one-shot task that uses read_file, write_file, edit and grep (the embedded
// rg, seen to start); that session resumed with -c; @file arguments in the platform's own path
// spelling; exit codes 2 (usage), 1 (a model error) and 3 (turn limit, with its hand-off); on
// Windows also its own spellings (a `~\` path, a `\` glob, CRLF files, cmd.exe's quoting, names in
// another case, a HOME set elsewhere), grep's built-in search, cmd's UTF-8 output and multi-line
// commands, and a background job ending with hey (its job object). The
// summary at the end says what ran where. Not in `npm test` (its name does not end in .test.ts):
// the builds, qemu and the Wine chroot take minutes on a fresh machine.
//
// What Wine cannot show, so this file does not claim it:
// - a real Git Bash or PowerShell: Wine has neither (its PowerShell is a stub). The Git Bash test
//   starts cmd.exe copied to where Git for Windows keeps bash.exe, so it shows which program hey
//   starts, not bash running; cmd.exe, chosen with [tools] shell, is the only shell that runs here;
// - a connection refused: Wine reports a connect to a closed loopback port as made, and the
//   request then waits out [retry] idle_timeout_ms (Windows refuses it within seconds);
// - the environment an MCP server gets: Wine's cmd.exe puts TEMP and the like back itself;
// - PowerShell's -EncodedCommand decoding and its UTF-8 output ([Console]::OutputEncoding), WindowsApps alias stubs, `.cmd` shims (npx/uvx MCP
//   servers), console behaviour (ConPTY, Ctrl-C, colours, bracketed paste in the REPL);
// - Windows' refusal to replace a running .exe (Wine lets it happen), so `hey upgrade`'s
//   move-aside path is not proven here, nor are file locking, ACLs, long paths, Defender or
//   SmartScreen, and real NTFS case rules;
// - speed: Wine and qemu timings say nothing about the real platforms.
// linux-x64-musl (Alpine) and both macOS builds are not run at all (no emulator here for macOS;
// musl needs its libstdc++ and libgcc, see README).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureTargetBinary, tempDir } from "../helpers/e2e.ts";
import { resultText, startModelServer, textOf, type ChatRequest, type ModelServer, type Turn } from "../helpers/model-server.ts";
import { builtName } from "../../src/upgrade/targets.ts";
import { ensureWineRoot, qemuMissing, qemuRunner, wineMissing, wineRunner, type PlatformRun, type Runner } from "./runners.ts";

const ROOT = join(import.meta.dir, "..", "..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const inCi = Boolean(process.env.CI);

/** What the summary prints: per platform, each check and what it showed. */
const ran = new Map<string, string[]>();
const note = (platform: string, line: string) => void ran.set(platform, [...(ran.get(platform) ?? []), line]);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

afterAll(() => {
  const lines = [...ran].flatMap(([platform, checks]) => [`  ${platform}:`, ...checks.map((c) => `    ${c}`)]);
  console.log(`\ntest:platforms — what ran on each platform:\n${lines.join("\n")}\n`);
});

// The scripted model: what it does depends on the task the first user message names.
const TASK = "update the notes on this platform";
function decide(req: ChatRequest): Turn {
  const first = textOf(req.messages.find((m) => m.role === "user"));
  const results = req.messages.filter((m) => m.role === "tool").length;
  if (first.startsWith("break")) throw new Error("this model is broken on purpose");
  if (first.startsWith("loop")) return { calls: [["read_file", { path: "notes.txt" }]] };
  if (first.startsWith("summarize")) return { text: "summarized" };
  const turns = req.messages.filter((m) => m.role === "assistant").length; // two calls in a turn: count turns, not results
  if (first.startsWith("cased")) {
    const cased: Turn[] = [
      {
        calls: [
          ["read_file", { path: "cased\\b.txt" }],
          ["read_file", { path: "z:\\work\\proj\\cased\\d.txt" }],
          ["read_file", { path: "cased\\f.txt" }],
        ],
      },
      {
        calls: [
          ["write_file", { path: "cased\\B.txt", content: "B\n" }],
          ["write_file", { path: "Z:\\work\\proj\\cased\\d.txt", content: "D\n" }],
          ["write_file", { path: "z:/work/proj/cased/F.TXT", content: "F\n" }],
        ],
      },
      { text: "cased done" },
    ];
    return cased[Math.min(turns, cased.length - 1)]!;
  }
  if (first.startsWith("case one")) {
    if (!textOf(req.messages.findLast((m) => m.role === "user")).startsWith("case two")) return { text: "one" };
    return results === 0 ? { calls: [["write_file", { path: "~\\home-check.txt", content: "home\n" }]] } : { text: "two" };
  }
  if (first.startsWith("cmd output")) {
    // a batch file's lines: each %VAR% read when its line runs, after the lines before it ran. Its
    // text is ASCII: Wine's cmd reads a batch file in the OEM code page whatever chcp said (Windows'
    // reads each line in the code page in effect when it gets to it), so non-ASCII text is typed on one line
    const lines =
      "echo one\nset GREETING=hello world\nif exist win-cafe (\n  dir /b win-cafe\n  echo %GREETING%\n)\ncmd /c exit 3\necho exited %ERRORLEVEL%\ncd win-cafe\necho in %CD%\nexit /b 4";
    return results === 0
      ? {
          calls: [
            ["bash", { command: "echo héllo wörld" }],
            ["bash", { command: lines }],
          ],
        }
      : { text: "cmd done" };
  }
  if (first.startsWith("background job")) {
    if (results === 1) jobSeen.push(...processesWith(JOB_MARK)); // the job runs while hey does
    return results === 0 ? { calls: [["bash", { command: `start /b cmd /c ping ${JOB_MARK} >nul 2>&1 & echo started` }]] } : { text: "left it running" };
  }
  if (first.startsWith("look behind")) return results === 0 ? { calls: [["grep", { pattern: "(?<=a)&b" }]] } : { text: "searched" };
  if (first.startsWith("git bash")) return results === 0 ? { calls: [["bash", { command: "echo from bash" }]] } : { text: "ran it" };
  if (first.startsWith("windows")) {
    const windows: Turn[] = [
      {
        calls: [
          ["write_file", { path: "~\\hey-notes\\win.txt", content: "from hey\n" }],
          ["grep", { pattern: "gamma", glob: "win\\**\\*.txt" }],
          ["read_file", { path: "win\\rewrite.txt" }], // write_file overwrites only a file read this run
        ],
      },
      {
        calls: [
          ["edit", { path: "win\\crlf.txt", old_string: "alpha\nbeta", new_string: "alpha\nBETA\nbeta 2" }],
          ["write_file", { path: "win\\rewrite.txt", content: "x\ny\n" }],
        ],
      },
      { calls: [["bash", { command: 'echo "a b" & echo done' }]] },
      { text: "windows done" },
    ];
    return windows[Math.min(turns, windows.length - 1)]!;
  }
  const last = textOf(req.messages.findLast((m) => m.role === "user"));
  if (last.startsWith("what did you change")) return { text: "I edited notes.txt and wrote out/result.txt" };
  const script: Turn[] = [
    { calls: [["read_file", { path: "notes.txt" }]] },
    { calls: [["write_file", { path: "out/result.txt", content: "written by hey\n" }]] },
    { calls: [["edit", { path: "notes.txt", old_string: "alpha", new_string: "alpha, edited" }]] },
    { calls: [["grep", { pattern: "needle" }]] },
    { text: "done: read, wrote, edited and searched" },
  ];
  return script[Math.min(results, script.length - 1)]!;
}

/** The background job's ping, as its command line shows it on this machine (Wine's processes are Linux processes) */
const JOB_MARK = "-n 171 127.0.0.1";
const jobSeen: number[] = [];
/** This machine's processes whose command line holds `text` (and starts with `start`), by pid. */
function processesWith(text: string, start = ""): number[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const line = readFileSync(`/proc/${p}/cmdline`, "utf8").replaceAll("\0", " ");
        return line.startsWith(start) && line.includes(text);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

interface Platform {
  id: "linux-arm64" | "windows-x64";
  missing: () => string | undefined;
  runner: (binary: string, work: string) => Promise<Runner>;
  /** the embedded ripgrep as the platform started it */
  rg: RegExp;
}

const PLATFORMS: Platform[] = [
  { id: "linux-arm64", missing: qemuMissing, runner: qemuRunner, rg: /[\\/]hey[\\/]rg-[0-9a-f]{16}$/ },
  {
    id: "windows-x64",
    missing: wineMissing,
    async runner(binary, work) {
      const root = await ensureWineRoot(ROOT);
      note("windows-x64", `Wine chroot: ${root.made ? `made in ${secs(root.ms)}` : "cached"} (${root.root})`);
      return wineRunner(root.root, binary, work);
    },
    rg: /\\hey\\cache\\rg-[0-9a-f]{16}\.exe$/i,
  },
];

for (const platform of PLATFORMS) {
  const why = platform.missing();
  if (why && !inCi) {
    note(platform.id, `skipped: ${why}`);
    describe.skip(`${platform.id} — skipped: ${why}`, () => test("runs", () => {}));
    continue;
  }

  describe(platform.id, () => {
    let server: ModelServer;
    let runner: Runner;
    let work: ReturnType<typeof tempDir>;
    let proj: string;
    /** A case of Windows' own spellings: defined for the Windows build only, so no other build reports it skipped. */
    const windowsTest = (name: string, fn: () => Promise<void>) => {
      if (platform.id === "windows-x64") test(name, fn);
    };
    const hey = (args: string[], cwd = proj) => runner.run(["--base-url", server.baseUrl, "-m", "mock-model", ...args], { cwd });
    const expectOk = (r: PlatformRun) => {
      expect(
        r.stderr
          .trim()
          .split("\n")
          .filter((l) => /error|warning/i.test(l)),
      ).toEqual([]);
      expect(r.code).toBe(0);
    };

    beforeAll(async () => {
      if (why) throw new Error(`${why}: CI runs test:platforms, and .ci/run installs what it needs`);
      const started = performance.now();
      const before = Bun.file(join(ROOT, "dist", "platforms", builtName(platform.id))).lastModified; // 0: none yet
      const binary = await ensureTargetBinary(platform.id);
      const how = Bun.file(binary).lastModified === before ? "up to date, not rebuilt" : `built in ${secs(performance.now() - started)}`;
      note(platform.id, `${binary.slice(ROOT.length + 1)} (${(Bun.file(binary).size / 1e6).toFixed(0)} MB, embedded rg): ${how}`);
      work = tempDir(`hey-platform-${platform.id}-`);
      proj = join(work.path, "proj");
      mkdirSync(join(proj, "src"), { recursive: true });
      mkdirSync(join(work.path, "home"), { recursive: true });
      writeFileSync(join(proj, "notes.txt"), "alpha\nneedle one\n");
      writeFileSync(join(proj, "src", "app.txt"), "needle two\n");
      server = startModelServer(decide);
      runner = await platform.runner(binary, work.path);
      note(platform.id, `runner: ${runner.describe}`);
    }, 20 * 60_000);

    afterAll(async () => {
      await runner?.close();
      server?.stop();
      work?.remove();
    });

    test("--version names the version and the target", async () => {
      const r = await runner.run(["--version"], { cwd: proj });
      expectOk(r);
      expect(r.stdout.trim()).toMatch(
        new RegExp(`^hey ${VERSION.replaceAll(".", "\\.")} \\([0-9a-f]{12}(-dirty)?, built \\d{4}-\\d\\d-\\d\\d, ${platform.id}\\)$`),
      );
      note(platform.id, `✓ --version: ${r.stdout.trim()} (${secs(r.ms)})`);
    });

    test("a one-shot task with read_file, write_file, edit and grep, grep through the embedded ripgrep", async () => {
      const before = server.requests.length;
      const r = await hey(["-p", TASK]);
      expectOk(r);
      expect(r.stdout).toBe("done: read, wrote, edited and searched\n");
      expect(readFileSync(join(proj, "notes.txt"), "utf8")).toBe("alpha, edited\nneedle one\n");
      expect(readFileSync(join(proj, "out", "result.txt"), "utf8")).toBe("written by hey\n");
      const last = server.requests.at(-1)!;
      const results = last.messages.filter((m) => m.role === "tool").map(resultText);
      expect(server.requests.length - before).toBe(5);
      expect(results[0]).toContain("needle one");
      expect(results[3]).toBe("notes.txt:2: needle one\nsrc/app.txt:1: needle two");
      // grep runs ripgrep more than once (its counts, then the lines it shows): each time the embedded one
      const rg = r.started.filter((p) => platform.rg.test(p));
      expect(rg.length).toBeGreaterThan(0);
      expect([...new Set(rg)]).toEqual([rg[0]!]);
      note(platform.id, `✓ one-shot task: read_file, write_file (out/result.txt), edit (notes.txt), grep → 2 hits via ${rg[0]} (${secs(r.ms)})`);
    });

    test("-c continues that session: the model gets the task and its tool results again", async () => {
      const r = await hey(["-c", "-p", "what did you change?"]);
      expectOk(r);
      expect(r.stdout).toBe("I edited notes.txt and wrote out/result.txt\n");
      const req = server.requests.at(-1)!;
      const users = req.messages.filter((m) => m.role === "user").map(textOf);
      expect(users[0]).toContain(TASK);
      expect(users.at(-1)).toContain("what did you change?");
      expect(req.messages.filter((m) => m.role === "tool")).toHaveLength(4);
      note(platform.id, `✓ -c resumed the session: ${req.messages.length} messages sent, the 4 tool results among them (${secs(r.ms)})`);
    });

    test("@file arguments in the platform's spelling: relative with its separator, and absolute", async () => {
      const sep = platform.id.startsWith("windows") ? "\\" : "/";
      const relative = `src${sep}app.txt`;
      const absolute = runner.path(join(proj, "notes.txt"));
      const r = await hey(["-p", "summarize", `@${relative}`, `@${absolute}`]);
      expectOk(r);
      expect(r.stdout).toBe("summarized\n");
      const prompt = textOf(server.requests.at(-1)!.messages.findLast((m) => m.role === "user"));
      expect(prompt).toContain("needle two");
      expect(prompt).toContain("alpha, edited\nneedle one");
      expect(prompt).toContain(relative.replaceAll("\\", "/").split("/").pop()!);
      note(platform.id, `✓ @${relative} and @${absolute} expanded into the prompt (${secs(r.ms)})`);
    });

    test("exit codes: 2 for a usage error, 1 for a model error, 3 at the turn limit (with the hand-off file)", async () => {
      const usage = await runner.run(["--no-such-flag"], { cwd: proj });
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain("--no-such-flag");
      const broken = await hey(["-p", "break please"]);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain("this model is broken on purpose");
      const loop = await hey(["-p", "loop forever", "--max-turns", "2"]);
      expect(loop.code).toBe(3);
      expect(existsSync(join(proj, ".hey", "task.md"))).toBe(true);
      note(platform.id, `✓ exit codes: ${usage.code} (usage), ${broken.code} (model error), ${loop.code} (turn limit, .hey/task.md written)`);
    });

    // Windows' own spellings, which Linux never sees: a `~\` path, a glob written with `\`, CRLF
    // files through edit and write_file, and cmd.exe's quoting (spawned verbatim: cmd reads `\"` as text)
    windowsTest("Windows spellings: ~\\ paths, \\ globs, CRLF kept by edit and write_file, cmd.exe quotes", async () => {
      mkdirSync(join(proj, "win", "sub"), { recursive: true });
      writeFileSync(join(proj, "win", "crlf.txt"), "alpha\r\nbeta\r\ngamma\r\n");
      writeFileSync(join(proj, "win", "rewrite.txt"), "one\r\ntwo\r\n");
      writeFileSync(join(proj, "win", "sub", "g.txt"), "gamma here\n");
      writeFileSync(join(proj, "cmd.toml"), '[tools]\nshell = "cmd"\n');
      const r = await hey(["-p", "windows spellings", "--config", "cmd.toml"]);
      expectOk(r);
      expect(r.stdout).toBe("windows done\n");
      const req = server.requests.at(-1)!;
      const results = req.messages.filter((m) => m.role === "tool").map(resultText);
      expect(results[0]).toBe("created ~\\hey-notes\\win.txt (1 line, 9 bytes)");
      // ~ is the Windows user's folder, in the run's copy of the Wine prefix
      const users = join(work.path, "prefix", "drive_c", "users");
      expect(readdirSync(users).filter((u) => existsSync(join(users, u, "hey-notes", "win.txt")))).toHaveLength(1);
      expect(results[1]).toBe("win/crlf.txt:3: gamma\nwin/sub/g.txt:1: gamma here");
      expect(readFileSync(join(proj, "win", "crlf.txt"), "utf8")).toBe("alpha\r\nBETA\r\nbeta 2\r\ngamma\r\n");
      expect(readFileSync(join(proj, "win", "rewrite.txt"), "utf8")).toBe("x\r\ny\r\n");
      expect(results[5]).toContain('"a b"');
      expect(results[5]).not.toContain('\\"');
      expect(results[5]).toContain("done");
      expect(textOf(req.messages[0])).toContain("shell: cmd.exe");
      note(platform.id, `✓ ~\\ path written, \\ glob matched, CRLF kept by edit and write_file, cmd.exe got its quotes (${secs(r.ms)})`);
    });

    // a pattern ripgrep rejects (look-behind) is searched by grep's built-in walker, which reads the
    // .gitignore of every folder above the project: Z:\ has none, and a failed Bun.file() read let
    // Bun end the process there, exit 0, with no result and no answer (oven-sh/bun#39787)
    windowsTest("grep's built-in search (a look-behind pattern) finishes the run, with its match and the answer", async () => {
      writeFileSync(join(proj, "lookbehind.txt"), "a&b\n");
      const r = await hey(["-p", "look behind"]);
      expectOk(r);
      expect(r.stdout).toBe("searched\n");
      expect(r.stderr).toContain("✓ 1 match");
      expect(resultText(server.requests.at(-1)!.messages.findLast((m) => m.role === "tool")!)).toBe("lookbehind.txt:1: a&b");
      note(platform.id, `✓ grep's built-in search (look-behind) found its match, with Z:\\.gitignore missing, and the run went on (${secs(r.ms)})`);
    });

    // cmd.exe writes to a pipe in the OEM code page (café.txt read `caf‚.txt`), and `cmd /c` ran
    // only the first line of a command of several; joined into one line, every %VAR% was expanded
    // before any ran (`set X=…` then `echo %X%` printed `%X%`: explorer finding x79 #3)
    windowsTest("cmd.exe: non-ASCII names and text read as typed, a multi-line command run as a batch file, the last one's exit code", async () => {
      mkdirSync(join(proj, "win-cafe"), { recursive: true });
      writeFileSync(join(proj, "win-cafe", "café.txt"), "");
      writeFileSync(join(proj, "cmd.toml"), '[tools]\nshell = "cmd"\n');
      const r = await hey(["-p", "cmd output", "--config", "cmd.toml"]);
      expect(r.stderr.split("\n").filter((l) => /error|warning/i.test(l) && !l.includes("%ERRORLEVEL%"))).toEqual([]); // the command is shown
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("cmd done\n");
      const [typed, batch] = server.requests
        .at(-1)!
        .messages.filter((m) => m.role === "tool")
        .map(resultText);
      expect(typed).toBe("héllo wörld\n[exit code 0]");
      expect(batch).toStartWith(`one\ncafé.txt\nhello world\nexited 3\nin ${runner.path(join(proj, "win-cafe"))}\n[exit code 4]`);
      expect(batch).not.toContain("not UTF-8");
      note(
        platform.id,
        `✓ cmd.exe: café.txt and héllo wörld read as written, a batch file's %VAR%, %ERRORLEVEL% and %CD% per line, exit code 4 (${secs(r.ms)})`,
      );
    });

    // A job a command leaves running ends with hey, however hey ends (README): on Windows through a
    // job object (tools/job-object.ts). Before, `start /b` left it running after hey had exited.
    windowsTest("a job a cmd command leaves in the background (start /b) ends when hey does", async () => {
      writeFileSync(join(proj, "cmd.toml"), '[tools]\nshell = "cmd"\n');
      const run = hey(["-p", "background job", "--config", "cmd.toml"]);
      // hey.exe's own process (Wine's, here), gone: the run's output may stay open while the job holds it
      const heyRuns = () => processesWith("-p background job", "/work/hey.exe").length > 0;
      for (let tries = 0; (jobSeen.length === 0 || heyRuns()) && tries < 600; tries++) await Bun.sleep(100);
      expect(jobSeen.length).toBeGreaterThan(0); // it ran while hey did
      expect(heyRuns()).toBe(false);
      let left = processesWith(JOB_MARK);
      // Windows ends the job's processes as hey's handle to it closes, with hey's exit; Wine on a loaded
      // machine (a full CI run) has been seen to take over 5 s to, so it gets as long as hey's own exit
      for (let tries = 0; left.length > 0 && tries < 300; tries++) {
        await Bun.sleep(100);
        left = processesWith(JOB_MARK);
      }
      for (const pid of left) process.kill(pid, "SIGKILL"); // should this fail, the job does not outlive the test (it would fail the next run's look)
      expect(left).toEqual([]);
      const r = await run;
      expectOk(r);
      expect(r.stdout).toBe("left it running\n");
      note(platform.id, `✓ start /b cmd /c ping …: running while hey ran (${jobSeen.length} processes), gone once it exited (${secs(r.ms)})`);
    });

    // Windows' file systems ignore case, and models copy VS Code's `c:\…` paths: a file read as
    // `b.txt` may be written as `B.txt`, and write_file took it for a file never read
    windowsTest("write_file takes a file read under another case of its name as read (b.txt → B.txt, z:\ → Z:\)", async () => {
      mkdirSync(join(proj, "cased"), { recursive: true });
      for (const name of ["b", "d", "f"]) writeFileSync(join(proj, "cased", `${name}.txt`), `${name}\n`);
      const r = await hey(["-p", "cased names"]);
      expectOk(r);
      expect(r.stdout).toBe("cased done\n");
      const results = server.requests
        .at(-1)!
        .messages.filter((m) => m.role === "tool")
        .map(resultText);
      expect(results.slice(3).filter((t) => t.includes("not written"))).toEqual([]);
      expect(["b", "d", "f"].map((name) => readFileSync(join(proj, "cased", `${name}.txt`), "utf8"))).toEqual(["B\n", "D\n", "F\n"]);
      expect(readdirSync(join(proj, "cased")).sort()).toEqual(["b.txt", "d.txt", "f.txt"]); // each file kept its own name
      note(platform.id, `✓ write_file wrote B.txt, Z:\\…\\d.txt and z:/…/F.TXT, read as b.txt, z:\\…\\d.txt and f.txt (${secs(r.ms)})`);
    });

    // PowerShell's and cmd's `cd` keep the case typed (`cd \WORK\CASE`), and Git Bash or MSYS2 set
    // HOME to their own home: hey is still in the same project — trusted, its session continued —
    // and ~ is still the user folder, where hey's config and sessions are
    windowsTest(
      "a launch directory typed in another case, with HOME set elsewhere: the same project, trusted, its session continued, ~ the user folder",
      async () => {
        const dir = join(work.path, "Case");
        mkdirSync(join(dir, ".hey"), { recursive: true });
        writeFileSync(join(dir, ".hey", "config.toml"), "[agent]\nmax_turns = 7\n");
        const users = join(work.path, "prefix", "drive_c", "users");
        const user = readdirSync(users).filter((u) => u !== "Public"); // Wine's user folder, named after the Unix user
        expect(user).toHaveLength(1);
        const home = join(users, user[0]!);
        // trusted as `hey trust` records it when run in Z:\work\Case: in trust.json and approvals.json
        const record = (file: string, empty: object, add: (json: any) => void) => {
          mkdirSync(join(file, ".."), { recursive: true });
          const json = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : empty;
          add(json);
          writeFileSync(file, JSON.stringify(json));
        };
        record(join(home, ".config", "hey", "trust.json"), { version: 1, projects: {} }, (j) => {
          j.projects["Z:\\work\\Case"] = { trusted: true, decided: "2026-01-01T00:00:00.000Z" };
        });
        record(join(home, ".local", "state", "hey", "approvals.json"), { version: 1, configs: {}, trusted: [] }, (j) => j.trusted.push("Z:\\work\\Case"));
        const first = await hey(["-p", "case one"], dir);
        expectOk(first);
        expect(first.stderr).not.toContain("not loaded");
        const args = ["--base-url", server.baseUrl, "-m", "mock-model", "-c", "-p", "case", "two"];
        const r = await runner.run(args, { cwd: dir, viaCmd: ['set "HOME=C:\\otherhome"', "cd /d Z:\\WORK\\CASE"] });
        expectOk(r);
        expect(r.stderr).not.toContain("not loaded");
        expect(r.stdout).toBe("two\n");
        const users0 = server.requests
          .at(-1)!
          .messages.filter((m) => m.role === "user")
          .map(textOf);
        expect(users0[0]).toContain("case one");
        expect(readFileSync(join(home, "home-check.txt"), "utf8")).toBe("home\n");
        expect(existsSync(join(work.path, "prefix", "drive_c", "otherhome"))).toBe(false);
        note(
          platform.id,
          `✓ from cd /d Z:\\WORK\\CASE with HOME=C:\\otherhome: Z:\\work\\Case trusted, its session continued, ~\\ the user folder (${secs(r.ms)})`,
        );
      },
    );

    // cmd's `cd /d z:\…` (and VS Code's terminal) start hey in a directory whose drive letter is
    // lower case; the sessions begun in Z:\… are this directory's all the same
    windowsTest("a launch directory spelled z:\\… finds the sessions begun in Z:\\…", async () => {
      expectOk(await hey(["-p", "summarize"])); // a session begun in Z:\work\proj
      const r = await runner.run(["--sessions"], { cwd: proj, lowerDrive: true });
      expectOk(r);
      expect(r.stdout).toStartWith("ID ");
      expect(r.stdout).toContain("Z:\\work\\proj");
      expect(r.stdout).not.toContain("z:\\work");
      note(platform.id, `✓ --sessions from z:\\work\\proj listed the sessions of Z:\\work\\proj (${secs(r.ms)})`);
    });

    // Git for Windows' default install puts only Git\cmd (git.exe) on PATH: hey finds bin\bash.exe
    // beside it. Wine has no Git Bash, so cmd.exe stands in for both files: what counts is the
    // program hey starts for the bash tool, and what the model is told.
    windowsTest("the bash tool runs Git Bash found next to the git on PATH", async () => {
      const git = join(work.path, "prefix", "drive_c", "FakeGit");
      mkdirSync(join(git, "cmd"), { recursive: true });
      mkdirSync(join(git, "bin"), { recursive: true });
      const cmd = join(work.path, "prefix", "drive_c", "windows", "system32", "cmd.exe");
      copyFileSync(cmd, join(git, "cmd", "git.exe"));
      copyFileSync(cmd, join(git, "bin", "bash.exe"));
      const r = await runner.run(["--base-url", server.baseUrl, "-m", "mock-model", "-p", "git bash"], { cwd: proj, winePath: "C:\\FakeGit\\cmd" });
      expectOk(r);
      expect(r.started).toContain("C:\\FakeGit\\bin\\bash.exe");
      expect(textOf(server.requests.at(-1)!.messages[0])).toContain("shell: bash");
      note(platform.id, `✓ the bash tool started C:\\FakeGit\\bin\\bash.exe, found next to C:\\FakeGit\\cmd\\git.exe on PATH (${secs(r.ms)})`);
    });
  });
}
