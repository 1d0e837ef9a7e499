import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { chooseShell } from "../../src/tools/shell.ts";
import { type BashToolOptions, createBashTool, MAX_RESULT_LINES } from "../../src/tools/bash.ts";
import { callTool } from "../helpers/call-tool.ts";
import { killMarked, marker, processes, waitForGroup, withMarker } from "../helpers/processes.ts";
import { until } from "../helpers/wait.ts";

/** A test here whose command would hang (sleeps of minutes) fails at this deadline instead: no result is measured against a clock. */
const HANG = 10_000;

const shell = chooseShell({ platform: process.platform, findOnPath: (name) => Bun.which(name) ?? undefined });
let dir: string; // the project root the commands run in
let temp: string; // where the tool writes full outputs

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-bash-test-")));
  temp = join(dir, ".out");
  mkdirSync(temp);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tool = (opts: Partial<BashToolOptions> = {}) => createBashTool({ shell, timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: temp, ...opts });
const ctx = (signal = new AbortController().signal): ToolContext => ({ signal, cwd: dir });
const fullOutputPath = (output: string) => output.match(/\[full output: (.+)\]$/m)?.[1];

const leftovers: string[] = [];
afterEach(() => killMarked(leftovers.splice(0)));

describe("bash tool", () => {
  test("runs a command and reports its output and exit code", async () => {
    const r = await tool().run({ command: "echo hello" }, ctx());
    expect(r).toEqual({ output: "hello\n[exit code 0]" });
  });

  test("a non-zero exit is a failed call, its output and exit code reported", async () => {
    const r = await tool().run({ command: "echo out; echo oops >&2; exit 3" }, ctx());
    expect(r).toEqual({ output: "out\n[stderr]\noops\n[exit code 3]", isError: true });
  });

  test("runs in the working directory with the parent's environment", async () => {
    process.env.HEY_BASH_TEST_VAR = "from-parent";
    const r = await tool().run({ command: "pwd; echo $HEY_BASH_TEST_VAR" }, ctx());
    delete process.env.HEY_BASH_TEST_VAR;
    expect(r.output).toBe(`${dir}\nfrom-parent\n[exit code 0]`);
  });

  test("a shell killed by a signal says so", async () => {
    const r = await tool().run({ command: "echo before; kill -SEGV $$" }, ctx());
    expect(r).toEqual({ output: "before\n[exit code 139]\n[the shell was killed by SIGSEGV]", isError: true });
  });

  test("timeout_ms sent as a string is honoured", async () => {
    const r = await tool().run({ command: "sleep 5", timeout_ms: "1000" }, ctx());
    expect(r.output).toContain("timed out after 1 s");
  });

  test("a timeout_ms under a second (`60` meant as a minute) is refused before anything runs, with the value meant", async () => {
    const steps = "for i in 1 2 3 4 5 6 7 8 9 10; do echo step$i >> steps.log; sleep 0.05; done; echo migrated";
    const r = await tool().run({ command: steps, timeout_ms: 60 }, ctx());
    expect(r).toEqual({
      output: "bash: not run: timeout_ms is in milliseconds: 60 would stop the command after 0.06 s; for a minute send 60000 (the least is 1000)",
      isError: true,
    });
    expect(existsSync(join(dir, "steps.log"))).toBe(false); // nothing half-run
    const half = await tool().run({ command: "echo quick", timeout_ms: "500" }, ctx());
    expect(half.output).toBe("bash: not run: timeout_ms is in milliseconds: 500 would stop the command after 0.5 s; for 500 s send 500000 (the least is 1000)");
    // a limit of a second or more runs, and its timeout says nothing of units
    expect((await tool().run({ command: "echo quick", timeout_ms: 1000 }, ctx())).output).toBe("quick\n[exit code 0]");
    expect((await tool().run({ command: "sleep 5", timeout_ms: 1000 }, ctx())).output).not.toContain("milliseconds");
  });

  test("a [tools] bash_timeout_ms under a second (the user's, not the model's) is kept", async () => {
    const r = await tool({ timeoutMs: 300 }).run({ command: "sleep 5" }, ctx());
    expect(r.output).toContain("timed out after 0.3 s");
  });

  test("stdin is closed", async () => {
    const r = await tool().run({ command: "cat; echo after" }, ctx());
    expect(r.output).toBe("after\n[exit code 0]");
  });

  test(
    "a program that waits for all its children ends: the guard that ends the group with hey is none of its children",
    async () => {
      // `while (wait(NULL) > 0);` in C, `1 while wait() != -1` in Perl: waits until no child is left.
      // bash and zsh exec a lone or last command (`bash -c './prog'`, `bash -c 'make; ./prog'`): the
      // program has the shell's children then; `exec` makes it so under any shell.
      const waitsForAll = `exec perl -e 'if (!fork) { exit 0 } 1 while wait() != -1; print "every child reaped\\n"'`;
      const r = await tool({ timeoutMs: 5_000 }).run({ command: waitsForAll }, ctx());
      expect(r).toEqual({ output: "every child reaped\n[exit code 0]" }); // before: it waited on the guard, and was killed at the timeout
    },
    HANG,
  );

  test("bad arguments and a shell that cannot start are error results", async () => {
    expect(await callTool(tool(), {}, ctx())).toEqual({ output: "bash: `command` must be a string, got nothing", isError: true });
    expect(await callTool(tool(), { command: "  " }, ctx())).toEqual({ output: "bash: `command` must be a non-empty string", isError: true });
    const broken = createBashTool({
      shell: { program: "/nonexistent/sh", name: "sh", args: (c) => ["-c", c] },
      timeoutMs: 1000,
      filter: "builtin",
      raw: false,
    });
    const r = await broken.run({ command: "echo hi" }, ctx());
    expect(r.isError).toBe(true);
    expect(r.output).toContain("could not start /nonexistent/sh");
    expect(r.output).toEndWith("(the shell is [tools] shell, or HEY_SHELL)"); // where to mend it
  });

  test(
    "on timeout the whole process group is killed and the exit code is 124",
    async () => {
      const m = marker();
      leftovers.push(m);
      const running = tool().run({ command: `sh -c 'sleep ${m} & sleep ${m}'`, timeout_ms: 1000 }, ctx());
      const pgid = await waitForGroup(m);
      expect(processes().filter((p) => p.pgid === pgid).length).toBeGreaterThanOrEqual(3);
      const r = await running; // the sleeps last minutes: a result at all means the group was killed
      expect(r.isError).toBe(true);
      expect(r.output).toContain("[exit code 124]");
      expect(r.output).toContain("timed out after 1 s; the process group was killed");
      expect(processes().filter((p) => p.pgid === pgid)).toEqual([]);
    },
    HANG,
  );

  test.if(process.platform === "linux")(
    "on timeout a double-forked child (`(setsid sleep &)`, re-parented to init, in a group of its own) is stopped with the command",
    async () => {
      const m = marker();
      leftovers.push(m);
      const running = tool().run({ command: `(setsid sleep ${m} &); sleep ${m}`, timeout_ms: 1000 }, ctx());
      await until(() => withMarker(m).filter((p) => p.args.startsWith("sleep")).length === 2, "both sleeps");
      const r = await running;
      expect(r.output).toContain("timed out after 1 s; the process group was killed");
      expect(withMarker(m)).toEqual([]);
    },
    HANG,
  );

  test(
    "a group that ignores SIGTERM is killed with SIGKILL",
    async () => {
      const m = marker();
      leftovers.push(m);
      const running = tool({ timeoutMs: 500 }).run({ command: `trap '' TERM; sleep ${m} & sleep ${m}` }, ctx());
      const pgid = await waitForGroup(m);
      const r = await running;
      expect(r.output).toContain("[exit code 124]");
      expect(processes().filter((p) => p.pgid === pgid)).toEqual([]);
    },
    HANG,
  );

  test(
    "an abort kills the whole process group and says it was interrupted",
    async () => {
      const m = marker();
      leftovers.push(m);
      const abort = new AbortController();
      const running = tool().run({ command: `echo started; sleep ${m} & sleep ${m}` }, ctx(abort.signal));
      const pgid = await waitForGroup(m);
      abort.abort();
      const r = await running;
      expect(r.isError).toBe(true);
      expect(r.output).toContain("started");
      expect(r.output).toContain("[interrupted by user; the process group was killed]");
      expect(processes().filter((p) => p.pgid === pgid)).toEqual([]);
    },
    HANG,
  );

  test("an already aborted call does not start the command", async () => {
    const abort = new AbortController();
    abort.abort();
    const r = await tool().run({ command: "touch should-not-exist" }, ctx(abort.signal));
    expect(r.isError).toBe(true);
    expect(readdirSync(dir)).not.toContain("should-not-exist");
  });

  test(
    "a grandchild holding stdout open does not hang the tool past the drain",
    async () => {
      const m = marker();
      leftovers.push(m);
      const r = await tool().run({ command: `(sleep ${m} &) ; echo done` }, ctx());
      // back while the grandchild (minutes long) still holds the pipe; what it prints later goes to a file (background-jobs.test.ts)
      expect(r.output).toStartWith("done\n[exit code 0]\n[a job the command left running holds its output open: what it prints from now on goes to ");
      // the background process is the command's business: it was not killed
      expect(withMarker(m).length).toBe(1);
    },
    HANG,
  );

  test("large output is truncated and the full output is saved to the named file", async () => {
    const r = await tool({ raw: true }).run({ command: "seq 1 100000" }, ctx());
    expect(r.output.split("\n").length).toBeLessThanOrEqual(MAX_RESULT_LINES + 3);
    expect(r.output).toMatch(/… \d+ lines \(\d+ bytes\) omitted …/);
    expect(r.output).toContain("\n100000\n[exit code 0]");
    const path = fullOutputPath(r.output)!;
    expect(path.startsWith(temp)).toBe(true);
    const full = readFileSync(path, "utf8");
    expect(full).toBe(`${Array.from({ length: 100000 }, (_, i) => i + 1).join("\n")}\n\n[exit code 0]\n`);
  });

  test("output beyond the memory cap spills to disk and is saved whole", async () => {
    const r = await tool({ raw: true }).run({ command: "head -c 20000000 /dev/zero | tr '\\0' a; echo; echo tail-line" }, ctx());
    const path = fullOutputPath(r.output)!;
    expect(Bun.file(path).size).toBe(20_000_000 + "\ntail-line\n\n[exit code 0]\n".length);
    expect(r.output).toContain("tail-line\n[exit code 0]");
    expect(readdirSync(temp).filter((f) => f.endsWith(".stdout") || f.endsWith(".stderr"))).toEqual([]);
  }, 20_000);

  test("50 MB of output is filtered as a whole: an error in its middle is found, every line is counted, the file is whole", async () => {
    const lines = 2_300_000;
    const command = `awk 'BEGIN{for(i=1;i<=${lines};i++){ if(i==${lines / 2}) print "error: the middle broke"; else print "compiling unit " i } }'`;
    const r = await tool().run({ command }, ctx());
    const header = r.output.split("\n")[0]!;
    const [, dropped, total] = header.match(/^\[output filtered: (\d+) of (\d+) lines dropped/)!;
    expect(Number(total)).toBe(lines);
    // what is shown: the first lines, the error with its context, the last lines; the rest is counted as omitted
    expect(r.output).toContain("\nerror: the middle broke\n");
    expect(lines - Number(dropped)).toBe(r.output.split("\n").filter((l) => l.startsWith("compiling unit") || l.startsWith("error:")).length);
    const omitted = [...r.output.matchAll(/… (\d+) lines omitted …/g)].reduce((n, m) => n + Number(m[1]), 0);
    const folded = [...r.output.matchAll(/… (\d+) similar lines omitted …/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(omitted + folded + (lines - Number(dropped))).toBe(lines);
    const path = fullOutputPath(r.output)!;
    const expected = new Bun.CryptoHasher("sha256");
    for (let i = 1; i <= lines; i++) expected.update(i === lines / 2 ? "error: the middle broke\n" : `compiling unit ${i}\n`);
    expected.update("\n[exit code 0]\n");
    expect(new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex")).toBe(expected.digest("hex"));
    expect(readdirSync(temp).filter((f) => !f.endsWith(".log"))).toEqual([]);
  }, 30_000);

  test("spilled output that is not filtered says exactly how much was left out", async () => {
    const r = await tool({ raw: true }).run({ command: "seq 1 3000000" }, ctx());
    const m = r.output.match(/\n… (\d+) lines \((\d+) bytes\) omitted …\n/)!;
    const full = readFileSync(fullOutputPath(r.output)!, "utf8");
    const body = full.replace(/\n\n\[exit code 0\]\n$/, "\n[exit code 0]"); // the result's untruncated form
    const [head, tail] = r.output.replace(/\n\[full output: .+\]$/, "").split(m[0]);
    expect(Number(m[1])).toBe(body.split("\n").length - head!.split("\n").length - tail!.split("\n").length);
    expect(Number(m[2])).toBe(Buffer.byteLength(body) - Buffer.byteLength(head!) - Buffer.byteLength(tail!));
    expect(head).toStartWith("1\n2\n");
    expect(tail).toEndWith("2999999\n3000000\n[exit code 0]");
  }, 20_000);

  test("megabytes of `\\r` progress read as the terminal shows them: every line, nothing said omitted, the exit code last", async () => {
    // 1.3 MB of one redrawn line, then 300 epochs of redraws with a line each (3.9 MB): both spill past memory's 1 MB
    const bar =
      'python3 -c \'import sys\nfor i in range(30000): sys.stdout.write("\\rBuilding %d/30000 [" % i + "#"*(i%50) + "]")\nsys.stdout.write("\\ndone\\n")\'';
    const r = await tool().run({ command: bar }, ctx());
    expect(r.output).toMatch(/^Building 29999\/30000 \[#{49}\]\ndone\n\[exit code 0\]\n\[full output: .+\]$/);
    const epochs =
      'python3 -c \'import sys\nfor e in range(300):\n  for i in range(300): sys.stdout.write("\\repoch %d %d/300" % (e, i) + "#"*40)\n  sys.stdout.write("\\n")\nsys.stdout.write("done\\n")\'';
    for (const opts of [{ raw: true }, { filter: "none" }]) {
      const whole = await tool(opts).run({ command: epochs }, ctx());
      const shown = whole.output.split("\n");
      expect(shown.slice(0, 302)).toEqual([...Array.from({ length: 300 }, (_, e) => `epoch ${e} 299/300${"#".repeat(40)}`), "done", "[exit code 0]"]);
      expect(whole.output).not.toContain("omitted");
    }
  }, 30_000);

  test("binary output (cat of an image, a spilled binary stream too) is named, not decoded into the result; its bytes are saved", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.alloc(3000, 0xe9)]);
    writeFileSync(join(dir, "logo.png"), png);
    for (const raw of [false, true]) {
      const r = await tool({ raw }).run({ command: "echo note >&2; cat logo.png" }, ctx());
      const shown = "[binary output: 3012 bytes, not shown; pipe it through od -c | head to see its start]\n[stderr]\nnote\n[exit code 0]";
      expect(r.output).toStartWith(`${shown}\n[full output: `);
      expect(readFileSync(fullOutputPath(r.output)!).subarray(0, png.length)).toEqual(png);
    }
    const big = await tool().run({ command: "head -c 3000000 /dev/zero; echo done" }, ctx());
    expect(big.output).toStartWith("[binary output: 3000005 bytes, not shown; pipe it through od -c | head to see its start]\n[exit code 0]\n[full output: ");
    expect(Bun.file(fullOutputPath(big.output)!).size).toBe(3_000_005 + "\n[exit code 0]\n".length);
  }, 20_000);

  test("text with a few NUL bytes in it is shown, each NUL as \\0, and so is what follows it; the full output keeps the bytes", async () => {
    const command = "printf 'PATH=/usr/bin\\0HOME=/root\\0'; echo; echo 'FAIL: worker exited with code 1' >&2";
    const r = await tool().run({ command }, ctx());
    expect(r.output).toStartWith(
      "PATH=/usr/bin\\0HOME=/root\\0\n[stderr]\nFAIL: worker exited with code 1\n[exit code 0]\n[NUL bytes are shown as \\0; the full output keeps the bytes]\n[full output: ",
    );
    expect(readFileSync(fullOutputPath(r.output)!, "latin1")).toStartWith("PATH=/usr/bin\0HOME=/root\0\n");
  });

  test("colours and progress redraws are not passed on, raw or not; the full output keeps them", async () => {
    const command = "printf '\\033[1;31merror\\033[0m: x\\n'; for i in 1 2 3; do printf '\\r%d%%' $i; sleep 0.01; done; echo; yes line | head -150";
    for (const raw of [false, true]) {
      const r = await tool({ raw }).run({ command }, ctx());
      expect(r.output).toStartWith("error: x\n3%\nline\n");
      expect(r.output).not.toMatch(/[\x1b\r]/);
    }
    const filtered = await tool().run({ command: `${command}; echo failed >&2; exit 1` }, ctx());
    expect(filtered.output).toStartWith("[output filtered: ");
    expect(readFileSync(fullOutputPath(filtered.output)!, "utf8")).toStartWith("\x1b[1;31merror\x1b[0m: x\n\r1%\r2%\r3%\n");
  });

  test("a file's own lone CRs (an old-Mac CSV) are kept when it is shown (cat); a command's progress redraws are not", async () => {
    writeFileSync(join(dir, "mac.csv"), "id,name\r1,ann\r2,bob\r");
    expect((await tool().run({ command: "cat mac.csv" }, ctx())).output).toBe("id,name\r1,ann\r2,bob\n[exit code 0]");
    expect((await tool().run({ command: "cat mac.csv | head -c 100" }, ctx())).output).toBe("id,name\r1,ann\r2,bob\n[exit code 0]");
    expect((await tool().run({ command: "printf 'x\\r5%%\\r100%%\\n' | tail -n 5" }, ctx())).output).toBe("100%\n[exit code 0]");
  });

  test("full outputs are private: folder 0700, file 0600", async () => {
    const outputDir = join(dir, "private", "session-x");
    const r = await tool({ raw: true, outputDir }).run({ command: "seq 1 100000" }, ctx());
    const path = fullOutputPath(r.output)!;
    expect(path.startsWith(outputDir + "/")).toBe(true);
    expect(statSync(outputDir).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  const noisy = `for i in $(seq 1 1500); do echo "ok $i - passes"; done; echo "FAILED tests/x.py::test_y - assert 1 == 2" >&2; echo "1 failed, 1500 passed"; exit 1`;

  test("long noisy output is filtered, and the full output is named", async () => {
    const r = await tool().run({ command: noisy }, ctx());
    expect(r.output).toStartWith("[output filtered: ");
    expect(r.output).toContain("FAILED tests/x.py::test_y - assert 1 == 2");
    expect(r.output).toContain("1 failed, 1500 passed");
    expect(r.output).toContain("[exit code 1]");
    expect(r.output.length).toBeLessThan(2000);
    expect(readFileSync(fullOutputPath(r.output)!, "utf8")).toContain("ok 777 - passes");
  });

  test("raw output is not filtered", async () => {
    const r = await tool({ raw: true }).run({ command: noisy }, ctx());
    expect(r.output.includes("[output filtered")).toBe(false);
    expect(r.output.includes("ok 777 - passes")).toBe(true);
    expect(fullOutputPath(r.output)).toBeUndefined();
  });

  test('bash_filter = "none" does not filter either', async () => {
    const r = await tool({ filter: "none" }).run({ command: noisy }, ctx());
    expect(r.output.includes("ok 777 - passes")).toBe(true);
  });

  test("git diff output is not filtered, only truncated", async () => {
    const repo = join(dir, "repo");
    const git = (...args: string[]) => {
      const p = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: repo });
      if (p.exitCode !== 0) throw new Error(p.stderr.toString());
    };
    mkdirSync(repo);
    git("init", "-q");
    writeFileSync(join(repo, "big.txt"), Array.from({ length: 5000 }, (_, i) => `line ${i} error`).join("\n") + "\n");
    git("add", ".");
    git("commit", "-qm", "init");
    writeFileSync(join(repo, "big.txt"), Array.from({ length: 5000 }, (_, i) => `line ${i} FAILED`).join("\n") + "\n");
    const r = await tool().run({ command: "cd repo && git --no-pager diff" }, ctx());
    expect(r.output.includes("[output filtered")).toBe(false);
    expect(r.output).toStartWith("diff --git a/big.txt b/big.txt");
    expect(r.output).toContain("-line 0 error\n");
    expect(r.output).toMatch(/… \d+ lines \(\d+ bytes\) omitted …/);
    const full = readFileSync(fullOutputPath(r.output)!, "utf8");
    expect(full.match(/^\+line \d+ FAILED$/gm)).toHaveLength(5000);
  });

  test("an external filter command is applied", async () => {
    const r = await tool({ filter: "head -n 3" }).run({ command: "seq 1 10; echo warn >&2" }, ctx());
    expect(r.output).toStartWith("[output filtered by `head -n 3`]\nwarn\n1\n2\n[exit code 0]\n[full output: ");
    expect(readFileSync(fullOutputPath(r.output)!, "utf8")).toBe("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n\n[stderr]\nwarn\n\n[exit code 0]\n");
  });

  test("a failing external filter falls back to the built-in one (the user is told: filter-watch.test.ts)", async () => {
    const r = await tool({ filter: "echo broken >&2; exit 7" }).run({ command: noisy }, ctx());
    expect(r.output).toStartWith("[output filtered: ");
    expect(r.output).toContain("FAILED tests/x.py::test_y");
  });

  test("the description states the real limits", () => {
    const t = tool({ timeoutMs: 120_000 });
    expect(t.description).toContain("timeout_ms: default 120000 ms, max 600000 ms");
    expect(t.description).toContain(`${MAX_RESULT_LINES} lines/50 KB`);
    expect(t.description.length).toBeLessThan(300);
    expect(tool({ raw: true }).description).not.toContain("errors, failures");
  });

  test("on Windows the description names the shell the command goes to: the tool is called bash, PowerShell 5.1 has no &&", () => {
    const powershell = chooseShell({ platform: "win32", findOnPath: () => undefined });
    expect(tool({ shell: powershell }).description).toStartWith(
      "Run a command with Windows PowerShell 5.1 (it has no && or ||: separate commands with ;), no stdin; each call starts in the working directory (cd DIR; …).",
    );
    const bash = chooseShell({ configured: "bash", platform: "linux", findOnPath: () => undefined });
    expect(tool({ shell: bash }).description).toStartWith("Run a shell command, no stdin; each call starts in the working directory (cd DIR && …).");
  });
});
