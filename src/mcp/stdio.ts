// The stdio transport of a local MCP server (SPEC §14), on Bun.spawn: it fits the SDK's
// Transport interface (start/send/close and the three callbacks) without importing it. The child
// gets an explicit environment — a short allow-list of the parent's plus the server's configured
// `env`, never the user's API keys — runs in its own process group (a Ctrl-C meant for hey does not
// reach it; close kills its whole tree) and its stderr is kept, the tail only, for diagnostics.
// Messages are newline-delimited JSON on stdin/stdout.

/** The parent's variables a server inherits (STYLE "Processes"); everything else must be configured. */
export const ENV_ALLOW = ["HOME", "LOGNAME", "USER", "PATH", "SHELL", "TERM", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ", "SYSTEMROOT", "WINDIR", "APPDATA", "LOCALAPPDATA", "USERPROFILE"];
/** How much of a server's stderr is kept for the failure message and /mcp. */
export const STDERR_TAIL_CHARS = 2_000;
/** A line on stdout longer than this is not a message hey will wait for. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;
/** After SIGTERM, how long the group gets before SIGKILL. */
const CLOSE_GRACE_MS = 500;

export interface StdioSpec {
  command: string;
  args: string[];
  /** the configured variables, added to the allow-listed ones */
  env: Record<string, string>;
  cwd?: string;
}

/** The child's environment: the allow-listed variables the parent has, then the configured ones. */
export function childEnv(parent: Record<string, string | undefined>, configured: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ENV_ALLOW) {
    const value = parent[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...configured };
}

/** Where a server's `command` is, as its start looks for it (its own PATH, its cwd), or null. */
export function findCommand(command: string, env: Record<string, string>, cwd: string | undefined): string | null {
  return Bun.which(command, { PATH: env.PATH ?? "", cwd: cwd ?? process.cwd() });
}

/** `command "x" not found on PATH` (a path: just not found). */
export const commandNotFound = (command: string) => `command ${JSON.stringify(command)} not found${command.includes("/") ? "" : " on PATH"}`;

/** A stdout line that is not JSON: the server broke the protocol (a banner, a log line). */
export class NoiseError extends Error {
  override name = "NoiseError";
}

export class StdioTransport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: unknown) => void) | undefined;
  /** why the process ended ("exited with code 1"), once it has */
  exitReason: string | undefined;
  private proc: Bun.Subprocess<"pipe", "pipe", "pipe"> | undefined;
  private tail = "";
  private closed = false;

  constructor(
    private readonly spec: StdioSpec,
    private readonly env: Record<string, string>,
  ) {}

  /** The last STDERR_TAIL_CHARS of the server's stderr, trimmed. */
  stderrTail(): string {
    return this.tail.trim();
  }

  /** Spawns the server. Throws when the command cannot be found or started. */
  async start(): Promise<void> {
    if (this.closed) throw new Error("closed before it started");
    const { command, args, cwd } = this.spec;
    const exe = findCommand(command, this.env, cwd);
    if (!exe) throw new Error(commandNotFound(command));
    const proc = Bun.spawn([exe, ...args], {
      cwd,
      env: this.env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: process.platform !== "win32",
      windowsHide: true,
    });
    this.proc = proc;
    const reading = this.readLines(proc.stdout);
    void this.readStderr(proc.stderr);
    void proc.exited.then(async (code) => {
      this.exitReason = proc.signalCode ? `killed by ${proc.signalCode}` : `exited with code ${code}`;
      await reading; // the last messages before the exit are delivered first
      this.finish();
    });
  }

  async send(message: unknown): Promise<void> {
    const proc = this.proc;
    if (!proc || this.closed) throw new Error("not connected");
    try {
      proc.stdin.write(JSON.stringify(message) + "\n");
      await proc.stdin.flush();
    } catch (e) {
      // EPIPE and the like: the process is gone (its exit is reported a moment later)
      throw new Error(`not connected: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Ends the server: stdin closed, SIGTERM to its group, SIGKILL after a short grace. Never throws. */
  async close(): Promise<void> {
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      try {
        Promise.resolve(proc.stdin.end()).catch(() => {}); // EPIPE: already gone
      } catch {} // already gone
      signalGroup(proc, "SIGTERM");
      const gone = await Promise.race([proc.exited.then(() => true), Bun.sleep(CLOSE_GRACE_MS).then(() => false)]);
      if (!gone) signalGroup(proc, "SIGKILL");
    }
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private async readLines(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of stream) {
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          this.line(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
        }
        if (buffer.length > MAX_LINE_CHARS) {
          this.onerror?.(new NoiseError(`a line of over ${MAX_LINE_CHARS} characters on stdout`));
          buffer = "";
        }
      }
    } catch {} // the pipe broke: the exit handler reports it
    if (buffer.trim() !== "") this.line(buffer);
  }

  private line(raw: string): void {
    const text = raw.trim();
    if (text === "") return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return this.onerror?.(new NoiseError(`it wrote something that is not JSON-RPC on stdout: ${JSON.stringify(text.slice(0, 120))}`));
    }
    this.onmessage?.(message);
  }

  private async readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) this.tail = (this.tail + decoder.decode(chunk, { stream: true })).slice(-STDERR_TAIL_CHARS);
    } catch {} // the pipe broke with the process
  }
}

/** A signal to the child's process group (the child alone on Windows). */
function signalGroup(proc: Bun.Subprocess, signal: NodeJS.Signals): void {
  try {
    if (process.platform === "win32") proc.kill(signal);
    else process.kill(-proc.pid, signal);
  } catch {} // ESRCH: nothing left
}
