// Issue 13 rows 1, 3 and 13: stdin and each @file are read at most `[input] max_bytes` + 1 bytes,
// special files are refused at once, what was cut is said on stderr and in the prompt, and an
// `@word` that names no file stays literal. Through the compiled binary against a local mock model.
import { describe, expect, test } from "bun:test";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { lastUserText, withoutNote } from "../helpers/model-server.ts";
import { fileModelServer, fileTempDir } from "../helpers/fixtures.ts";

const server = fileModelServer(() => ({ text: "ok" }));
const work = fileTempDir("hey-input-");

const adHoc = () => ["--base-url", server.baseUrl, "-m", "m"];
/** The prompt as the user gave it (a huge one fills the context: hey notes that after it) */
const lastPrompt = () => withoutNote(lastUserText(server.requests.at(-1)!));
const DEFAULT_MAX = 256 * 1024;

/** dist/hey run by sh, so stdin can be a device or a FIFO; with a deadline. */
async function heyWithStdin(args: string[], redirect: string, timeoutMs = 10_000) {
  const bin = await ensureBinary();
  const quoted = [bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  const started = performance.now();
  const proc = Bun.spawn(["sh", "-c", `exec ${quoted} ${redirect}`], {
    cwd: work.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work.path, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
    timeout: timeoutMs,
    killSignal: "SIGKILL",
  });
  const [stdout, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  return { code, stdout, stderr, ms: performance.now() - started };
}

describe("stdin", () => {
  test("`hey -p hi < /dev/zero` stops at once: binary stdin is refused, nothing is sent", async () => {
    const before = server.requests.length;
    const run = await heyWithStdin([...adHoc(), "-p", "hi"], "< /dev/zero");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("hey: stdin: binary data");
    expect(run.ms).toBeLessThan(5000);
    expect(server.requests.length).toBe(before);
  });

  test("40 MB of text on stdin: the first 256 KB (whole lines) go into the prompt, and the cut is said", async () => {
    const line = "log line with some words in it, number 0000000\n"; // 48 bytes
    const stdin = line.repeat(Math.ceil((40 << 20) / line.length));
    const run = await runHey([...adHoc(), "-p", "summarize"], { cwd: work.path, stdin });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("hey: stdin: only the first 256 KB went into the prompt ([input] max_bytes); the rest was left out");
    const prompt = lastPrompt();
    const kept = Math.floor(DEFAULT_MAX / line.length) * line.length;
    expect(prompt).toBe(
      `summarize\n\n\`\`\`stdin\n${stdin.slice(0, kept)}\`\`\`\n(truncated: showing the first ${kept} bytes of stdin; the rest was left out)`,
    );
    expect(server.sizes.at(-1)!).toBeLessThan(DEFAULT_MAX + 16_000); // + system prompt, tools, JSON escapes
  });

  test("[input] max_bytes sets the cap", async () => {
    const config = join(work.path, "small.toml");
    writeFileSync(config, "[input]\nmax_bytes = 1024\n");
    const run = await runHey([...adHoc(), "--config", config, "-p", "summarize"], { cwd: work.path, stdin: "x".repeat(5000) });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("stdin: only the first 1 KB went into the prompt");
    expect(lastPrompt()).toContain("```stdin\n" + "x".repeat(1024) + "\n```");
  });

  test("stdin that is an open pipe sending nothing: after 3 s hey says it is waiting, once, and input that comes late still counts", async () => {
    const proc = Bun.spawn([await ensureBinary(), ...adHoc(), "-p", "summarize"], {
      cwd: work.path,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work.path, NO_COLOR: "1" },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      timeout: 20_000,
      killSignal: "SIGKILL",
    });
    try {
      const started = performance.now();
      const stderr = proc.stderr.getReader();
      let said = "";
      while (!said.includes("\n")) {
        const { value, done } = await stderr.read();
        if (done) break;
        said += new TextDecoder().decode(value);
      }
      expect(said).toBe("hey: waiting for stdin (it is an open pipe); pass </dev/null to skip it\n");
      expect(performance.now() - started).toBeGreaterThan(2900);
      const before = server.requests.length;
      proc.stdin.write("the late log line\n");
      await proc.stdin.end();
      expect(await proc.exited).toBe(0);
      let rest = "";
      for (let r = await stderr.read(); !r.done; r = await stderr.read()) rest += new TextDecoder().decode(r.value);
      expect(rest).toBe(""); // said once
      expect(server.requests.length).toBe(before + 1);
      expect(lastPrompt()).toBe("summarize\n\n```stdin\nthe late log line\n```");
    } finally {
      proc.kill("SIGKILL");
    }
  });

  test("stdin that arrives within 3 s gets no waiting notice", async () => {
    const run = await heyWithStdin([...adHoc(), "-p", "summarize"], "< /dev/null");
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const piped = await runHey([...adHoc(), "-p", "summarize"], { cwd: work.path, stdin: "quick\n" });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe("");
  });

  test("a directory on stdin is a clear error", async () => {
    const run = await heyWithStdin([...adHoc(), "-p", "hi"], "< .");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("hey: stdin: cannot read (EISDIR)\n");
  });
});

describe("@files", () => {
  test("a 1 GB text file: only max_bytes + 1 bytes are read, the cut is said on stderr and in the prompt", async () => {
    const path = join(work.path, "big.log");
    const fd = openSync(path, "w");
    writeSync(fd, "first line of the log\n".repeat(20_000)); // 440 KB of text, then a 1 GB hole
    closeSync(fd);
    Bun.spawnSync(["truncate", "-s", "1G", path]);
    const run = await runHey([...adHoc(), "-p", "what is in @big.log?"], { cwd: work.path });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("hey: @big.log: only the first 256 KB of 1024.0 MB went into the prompt ([input] max_bytes)");
    const kept = Math.floor(DEFAULT_MAX / 22) * 22;
    expect(lastPrompt()).toEndWith(`\n\`\`\`\n(truncated: showing the first ${kept} of ${1 << 30} bytes; read_file can read the rest)`);
  });

  test.each([
    ["@/dev/zero", "/dev/zero", "a character device"],
    ["a FIFO", "fifo", "a named pipe (FIFO)"],
  ])("%s is refused at once, without being opened", async (_name, target, kind) => {
    if (target === "fifo") Bun.spawnSync(["mkfifo", join(work.path, "fifo")]);
    for (const args of [
      ["-p", `@${target}`],
      ["-p", `look at @${target} please`],
    ]) {
      const started = performance.now();
      const run = await runHey([...adHoc(), ...args], { cwd: work.path, timeoutMs: 10_000 });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`hey: @${target}: ${kind}, not a regular file; only files can be mentioned\n`);
      expect(performance.now() - started).toBeLessThan(5000);
    }
  });
});

describe("@words that name no file stay literal (row 13)", () => {
  test.each([["upgrade @types/node to v22"], ["why does @app.route('/x') 404?"], ["ask @john"]])("%s", async (message) => {
    const run = await runHey([...adHoc(), "-p", message], { cwd: work.path });
    expect(run.code).toBe(0);
    expect(lastPrompt()).toBe(message);
  });

  test("a path-like one is noted on stderr; an existing file is still expanded", async () => {
    mkdirSync(join(work.path, "app"), { recursive: true });
    writeFileSync(join(work.path, "app", "main.py"), "print('hi')\n");
    const run = await runHey([...adHoc(), "-p", "compare @app/main.py with @types/node"], { cwd: work.path });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("hey: @types/node is not a file here; it is sent as written");
    expect(lastPrompt()).toBe("compare @app/main.py with @types/node\n\n```app/main.py\nprint('hi')\n```");
  });

  test("an inline @dir stays as written (noted on stderr); a whole-argument @dir is refused (exit 2)", async () => {
    mkdirSync(join(work.path, "src"), { recursive: true });
    const message = "move the helpers from @src into lib";
    const run = await runHey([...adHoc(), "-p", message], { cwd: work.path });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("hey: @src is a directory, not a file; it is sent as written\n");
    expect(lastPrompt()).toBe(message);
    const before = server.requests.length;
    const alone = await runHey([...adHoc(), "-p", "@src"], { cwd: work.path });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe("hey: @src: is a directory; mention files, or ask hey to look inside it\n");
    expect(server.requests.length).toBe(before);
  });

  test("@~/file is the file in $HOME", async () => {
    const home = join(work.path, "home");
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "todo.md"), "- ship it\n");
    const run = await runHey([...adHoc(), "-p", "do @~/todo.md"], { cwd: work.path, env: { HOME: home } });
    expect(run.code).toBe(0);
    expect(lastPrompt()).toBe("do @~/todo.md\n\n```~/todo.md\n- ship it\n```");
  });

  test("an @path given as its own argument must exist (exit 2)", async () => {
    const run = await runHey([...adHoc(), "-p", "explain", "@types/node"], { cwd: work.path });
    expect(run.code).toBe(2);
    expect(run.stderr).toStartWith("hey: @types/node: no such file (");
  });
});

test("`[tools] bash_timeout_ms = 3000000000` is refused before anything runs: exit 2, path:line and the key (row 11)", async () => {
  const config = join(work.path, "huge-timeout.toml");
  writeFileSync(config, "[tools]\nbash_timeout_ms = 3000000000\n");
  const before = server.requests.length;
  const run = await runHey([...adHoc(), "--config", config, "-p", "hi"], { cwd: work.path });
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(`hey: ${config}:2: [tools] bash_timeout_ms must be between 100 and 86400000, got 3000000000\n`);
  expect(server.requests.length).toBe(before);
});
