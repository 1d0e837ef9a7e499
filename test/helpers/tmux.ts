// Drives dist/hey in a real terminal (issue 14): a tmux server on its own socket in a temp HOME (`tmux -S`), a
// clean HOME, keys typed with send-keys, pastes through tmux's buffer (bracketed when hey asks for
// it), and the screen read back with capture-pane. Waits poll the screen with generous timeouts:
// a loaded 2-core machine must not make a test flaky, and no sleep is ever an assertion.
import { dlopen, FFIType } from "bun:ffi";
import { closeSync, constants, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, tempDir } from "./e2e.ts";
import { until } from "./wait.ts";

/** How long a wait for screen content may take before the test fails, showing the screen. */
export const SCREEN_TIMEOUT_MS = 20_000;
const POLL_MS = 50;
/** Lines tmux keeps above the screen, and `scrollback` reads. */
const SCROLLBACK_LINES = 10_000;

export interface Term {
  /** the temporary HOME (also the working directory unless another was given) */
  home: string;
  /** where hey runs */
  cwd: string;
  /** tmux key names: "Enter", "C-c", "Escape", "C-d", "Up" … */
  keys(...names: string[]): Promise<void>;
  /** literal text, as typed */
  type(text: string): Promise<void>;
  /** text pasted as the terminal pastes it (bracketed when the program enabled it) */
  paste(text: string): Promise<void>;
  /** the visible screen; with `colors`, SGR escapes included; with `joined`, lines the terminal wrapped joined again */
  screen(opts?: ScreenOptions): Promise<string>;
  /** polls the screen until `want` is on it (a string, a pattern or a test); returns that screen */
  waitFor(want: string | RegExp | ((screen: string) => boolean), opts?: ScreenOptions & { timeoutMs?: number }): Promise<string>;
  /** resolves once the pane has the size */
  resize(cols: number, rows: number): Promise<void>;
  /** where the terminal's cursor is: column and row of the visible screen, from 0 */
  cursor(): Promise<{ col: number; row: number }>;
  /**
   * Resolves once the program in the pane has read every key typed so far: its terminal holds no
   * unread input. Keys typed during a turn show only under its status, so a test that lets the turn end next
   * waits on this, else the turn may end before they are read (Linux: FIONREAD on the pane's tty).
   */
  keysRead(): Promise<void>;
  /**
   * `names` (as keys() takes them) ready to go: a tmux client is attached now, and `send()` hands it the
   * keys with a write, not a new process, so they reach the program as the test's next step happens. For a
   * test that means keys to land together with something else (a turn's end): starting tmux for them
   * can take a second on a loaded machine. `send()` resolves once tmux has sent them.
   */
  keysReady(...names: string[]): Promise<{ send(): Promise<void> }>;
  /** hey's process id (the child of the pane's shell) */
  heyPid(): Promise<number>;
  /** with `record`: what the pane's programs wrote so far, escape sequences and all */
  recorded(): string;
  /** closes the terminal as closing its window does (tmux kill-session); the temp HOME stays until close() */
  kill(): Promise<void>;
  /** kills the tmux server and removes the temp directories */
  close(): Promise<void>;
}

export interface ScreenOptions {
  colors?: boolean;
  joined?: boolean;
  /** the scrollback too, not only the visible rows */
  scrollback?: boolean;
}

export interface TermOptions {
  args?: string[];
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** a working directory other than HOME */
  cwd?: string;
  /** shell commands run in the pane before hey (e.g. `stty -a > before`) */
  before?: string;
  /** shell commands run in the pane after hey exits; `$code` holds its exit code */
  after?: string;
  /**
   * hey run from the prompt of an interactive bash (`$ `), which has job control: Ctrl-Z stops
   * hey and `fg` resumes it, as in a user's terminal. `[exit N]` follows hey as usual; heyPid()
   * finds hey below the shell script that stands between.
   */
  jobControl?: boolean;
  /** what the programs write to the pane is kept, bytes as sent (recorded()): the script waits until the recording runs */
  record?: boolean;
}

/**
 * Starts `dist/hey ARGS` in a fresh tmux server. After hey exits the pane shows `[exit N]` and
 * stays open, so the screen can still be read.
 */
export async function startTerm(opts: TermOptions = {}): Promise<Term> {
  const bin = await ensureBinary();
  const home = tempDir("hey-tmux-");
  const cwd = opts.cwd ?? home.path;
  const socket = socketIn(home);
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, LANG: "C.UTF-8", TERM: "xterm-256color", ...opts.env };
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const hey = [bin, ...(opts.args ?? [])].map(quote).join(" ");
  const recording = join(home.path, ".hey-recorded");
  const wait = opts.record ? `while [ ! -e ${quote(recording)} ]; do sleep 0.05; done\n` : "";
  const script = `${wait}${opts.before ?? ""}\n${hey}\ncode=$?\n${opts.after ?? ""}\necho "[exit $code]"\nexec sleep 3600`;
  // with job control the script is a file an interactive shell runs: the job (the script and hey)
  // stops at Ctrl-Z and goes on at `fg`, and the script goes on after hey as it does without
  if (opts.jobControl) {
    env.PS1 = "$ ";
    writeFileSync(join(home.path, ".hey-run.sh"), script.replace(/\nexec sleep 3600$/, ""));
  }
  const pane = opts.jobControl ? ["bash", "--norc", "--noprofile", "-i"] : ["sh", "-c", script];
  // read when the server starts, before the pane exists: a scrollback that holds a long output whole (the default keeps 2000 lines)
  const conf = join(home.path, ".tmux.conf");
  writeFileSync(conf, `set-option -g history-limit ${SCROLLBACK_LINES}\nset-option -g status off\n`);
  const tmux = async (...args: string[]): Promise<string> => {
    const p = Bun.spawn(["tmux", "-u", "-S", socket.path, "-f", conf, ...args], { env, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([p.stdout.text(), p.stderr.text(), p.exited]);
    if (code !== 0) throw new Error(`tmux ${args[0]} failed (${code}): ${err}`);
    return out;
  };
  try {
    await tmux("new-session", "-d", "-s", "t", "-x", String(opts.cols ?? 80), "-y", String(opts.rows ?? 24), "-c", cwd, ...pane);
  } catch (e) {
    socket.remove();
    home.remove(); // a server that did not start leaves nothing behind
    throw e;
  }
  const target = ["-t", "t:0.0"];
  if (opts.record) {
    await tmux("pipe-pane", "-o", ...target, `cat >> ${quote(recording)}`);
    await until(() => existsSync(recording), "the recording to start"); // the pane's script starts once the file is there
  }

  const screen = async (o: ScreenOptions = {}) =>
    (
      await tmux(
        "capture-pane",
        "-p",
        ...(o.colors ? ["-e"] : []),
        ...(o.joined ? ["-J"] : []),
        ...(o.scrollback ? ["-S", `-${SCROLLBACK_LINES}`] : []),
        ...target,
      )
    )
      .replace(/ +$/gm, "")
      .replace(/\n+$/, "\n");
  const term: Term = {
    home: home.path,
    cwd,
    keys: async (...names) => void (await tmux("send-keys", ...target, ...names)),
    type: async (text) => void (await tmux("send-keys", ...target, "-l", text)),
    paste: async (text) => {
      // through a file: set-buffer takes the text on tmux's command line, which refuses a big one
      const file = join(home.path, ".hey-paste");
      writeFileSync(file, text);
      await tmux("load-buffer", "-b", "paste", file);
      await tmux("paste-buffer", "-p", "-d", "-b", "paste", ...target);
    },
    screen,
    async waitFor(want, o = {}) {
      const test = typeof want === "string" ? (s: string) => s.includes(want) : want instanceof RegExp ? (s: string) => want.test(s) : want;
      const deadline = Date.now() + (o.timeoutMs ?? SCREEN_TIMEOUT_MS);
      let last = "";
      for (;;) {
        last = await screen(o);
        if (test(last)) return last;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(want)}; the screen:\n${last}`);
        await Bun.sleep(POLL_MS);
      }
    },
    async resize(cols, rows) {
      await tmux("resize-window", ...target.slice(0, 1), "t:0", "-x", String(cols), "-y", String(rows));
      // the pane has the size (and the program its SIGWINCH) before anything typed next reaches it
      const size = async () => (await tmux("display-message", "-p", ...target, "#{pane_width}x#{pane_height}")).trim();
      await until(async () => (await size()) === `${cols}x${rows}`, `the pane at ${cols}x${rows}`);
    },
    async cursor() {
      const [col, row] = (await tmux("display-message", "-p", ...target, "#{cursor_x},#{cursor_y}")).trim().split(",").map(Number);
      return { col: col!, row: row! };
    },
    async keysRead() {
      const tty = (await tmux("display-message", "-p", ...target, "#{pane_tty}")).trim(); // also a round trip: tmux has written the keys sent before it
      await until(() => unreadInput(tty) === 0, "hey to read the keys typed");
    },
    async keysReady(...names) {
      // control mode (-C): commands on stdin, each answered by a %end or %error line on stdout
      const client = Bun.spawn(["tmux", "-u", "-S", socket.path, "-f", conf, "-C", "attach-session", "-t", "t"], {
        env,
        stdin: "pipe",
        stdout: "pipe",
        stderr: "ignore",
      });
      let said = "";
      const reading = (async () => {
        for await (const chunk of client.stdout.pipeThrough(new TextDecoderStream())) said += chunk;
      })();
      const answered = (n: number) => (said.match(/^%(end|error) /gm) ?? []).length >= n;
      await until(() => answered(1), "tmux's control client to attach"); // attach-session's own answer
      return {
        async send() {
          const quoted = names.map((n) => `'${n.replace(/'/g, "'\\''")}'`).join(" ");
          client.stdin.write(`send-keys ${target.join(" ")} ${quoted}\n`);
          client.stdin.flush();
          await until(() => answered(2), "tmux to send the keys");
          if (/^%error /m.test(said)) throw new Error(`tmux send-keys ${names.join(" ")} failed: ${said}`);
          client.stdin.end();
          await Promise.all([client.exited, reading]);
        },
      };
    },
    async heyPid() {
      const shell = Number((await tmux("display-message", "-p", ...target, "#{pane_pid}")).trim());
      const deadline = Date.now() + SCREEN_TIMEOUT_MS;
      for (;;) {
        const child = opts.jobControl ? descendantOf(shell, bin) : childOf(shell, bin);
        if (child) return child;
        if (Date.now() > deadline) throw new Error("hey did not start in the pane");
        await Bun.sleep(POLL_MS);
      }
    },
    recorded: () => (existsSync(recording) ? readFileSync(recording, "utf8") : ""),
    kill: async () => void (await tmux("kill-session", "-t", "t")),
    async close() {
      // hey, hung up on, saves its session and history before it exits: its home goes after it
      const shell = Number((await tmux("display-message", "-p", ...target, "#{pane_pid}").catch(() => "")).trim());
      const hey = shell ? descendantOf(shell, bin) : undefined; // with job control, below the script the shell runs
      await tmux("kill-server").catch(() => {});
      if (hey) await until(() => !runs(hey), "hey to exit", 10_000).catch(() => {});
      socket.remove();
      home.remove();
    },
  };
  if (opts.jobControl) {
    await term.waitFor((s) => s.trimEnd().endsWith("$"));
    await term.type('sh "$HOME/.hey-run.sh"');
    await term.keys("Enter");
  }
  return term;
}

/** Linux's ioctl asking how many bytes a terminal holds unread. */
const FIONREAD = 0x541b;
let ioctl: ((fd: number, request: number, out: Int32Array) => number) | undefined;

/** How many bytes typed into the terminal `tty` its program has not read yet. */
function unreadInput(tty: string): number {
  ioctl ??= dlopen(`libc.so.6`, { ioctl: { args: [FFIType.i32, FFIType.u64, FFIType.ptr], returns: FFIType.i32 } }).symbols.ioctl as unknown as typeof ioctl;
  // not made the test's controlling terminal, and never waiting on the line
  const fd = openSync(tty, constants.O_RDONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
  try {
    const count = new Int32Array(1);
    if (ioctl!(fd, FIONREAD, count) !== 0) throw new Error(`ioctl(FIONREAD) on ${tty} failed`);
    return count[0]!;
  } finally {
    closeSync(fd);
  }
}

/** A unix socket's path holds at most 107 bytes; a longer one fails with "File name too long". */
const SOCKET_PATH_MAX = 107;

/**
 * Where the tmux server's socket lives: in the temp HOME, so it goes with it (a named one stays in
 * /tmp/tmux-UID after kill-server), hidden as .tmux.conf is, since a test may list its HOME. Under
 * a TMPDIR too long for that, in a short directory of its own in /tmp, removed with the terminal.
 */
function socketIn(home: { path: string }): { path: string; remove(): void } {
  const inHome = join(home.path, ".tmux.sock");
  if (Buffer.byteLength(inHome) <= SOCKET_PATH_MAX) return { path: inHome, remove: () => {} };
  const dir = mkdtempSync("/tmp/hey-tmux-");
  return { path: join(dir, "s"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Whether `pid` runs (a zombie does not: where no init reaps, one may stay). */
function runs(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "latin1"));
  } catch {
    return false;
  }
}

/** The process whose parent is `parent` and whose executable is `exe`, from /proc. */
function childOf(parent: number, exe: string): number | undefined {
  return processesOf(exe).find((p) => p.ppid === parent)?.pid;
}

/** `exe` running anywhere below `ancestor` (with job control a shell script stands between the pane's shell and hey). */
function descendantOf(ancestor: number, exe: string): number | undefined {
  const parents = new Map(processesOf().map((p) => [p.pid, p.ppid]));
  return processesOf(exe).find((p) => {
    for (let up = p.ppid, hops = 0; up > 1 && hops < 16; up = parents.get(up) ?? 0, hops++) if (up === ancestor) return true;
    return false;
  })?.pid;
}

/** Each process (of `exe`, when given) with its parent, from /proc. */
function processesOf(exe?: string): { pid: number; ppid: number }[] {
  const out: { pid: number; ppid: number }[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (exe === undefined || readFileSync(`/proc/${name}/cmdline`, "utf8").startsWith(exe)) out.push({ pid: Number(name), ppid });
    } catch {} // gone meanwhile
  }
  return out;
}
