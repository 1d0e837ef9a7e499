// The stdio transport of a local MCP server (SPEC §14), on child.ts's process: it fits the SDK's
// Transport interface (start/send/close and the three callbacks) without importing it. The child
// gets an explicit environment — a short allow-list of the parent's plus the server's configured
// `env`, never the user's API keys — runs in its own process group (a Ctrl-C meant for hey does not
// reach it; close kills its whole tree) and its stderr is kept, the tail only, for diagnostics.
// Messages are newline-delimited JSON on stdin/stdout. The child and its pipes hold the program
// open only while a request to it is in flight (in-flight.ts; POSIX, see child.ts): a program that
// embeds hey (lib.ts createMcp) and forgets close() still exits, and the server, its stdin
// closed, ends too.
import { errorText } from "../kernel/errors.ts";
import { type Child, spawnChild } from "./child.ts";
import { inFlight } from "./in-flight.ts";

/** The parent's variables a server inherits (STYLE "Processes"); everything else must be configured. */
export const ENV_ALLOW = [
  "HOME",
  "LOGNAME",
  "USER",
  "PATH",
  "SHELL",
  "TERM",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TMPDIR",
  "TZ",
  // Windows: what its programs expect to find (the MCP SDK's own list, with TMP, COMSPEC and
  // PATHEXT): without TEMP npx's cache falls back to the system's temp folder, which a user may not
  // write; PATHEXT is how `npx` finds npx.cmd; COMSPEC the cmd.exe that runs it
  "SYSTEMROOT",
  "SYSTEMDRIVE",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
  "TEMP",
  "TMP",
  "APPDATA",
  "LOCALAPPDATA",
  "PROGRAMDATA",
  "PROGRAMFILES",
  "USERPROFILE",
  "HOMEDRIVE",
  "HOMEPATH",
  "USERNAME",
  "PROCESSOR_ARCHITECTURE",
];
/** How much of a server's stderr is kept for the failure message and /mcp. */
export const STDERR_TAIL_CHARS = 2_000;
/**
 * The largest message read from a server's stdout. A longer line (a tool asked for a 100 MB file)
 * is dropped as it arrives — hey's memory stays bounded whatever the server sends — and the call
 * it answers fails with its size (issue 24). Results over 8,000 characters are cut for the model
 * anyway (results.ts); 16 MiB leaves room for images.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Of a dropped line, its first and last bytes are kept: the JSON-RPC id is at one end. */
const EDGE_BYTES = 512;
/** After SIGTERM, how long the group gets before SIGKILL. */
const CLOSE_GRACE_MS = 500;
/** After the server exits, how long its last messages may take to arrive: a process it started can hold stdout open for ever. */
const IO_DRAIN_MS = 200;

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

/** A server's command that is not there (not found on its PATH, or no such file). */
export class CommandNotFound extends Error {
  override name = "CommandNotFound";
}

/** `command "x" not found on PATH` (a path: just not found). */
export const commandNotFound = (command: string) => `command ${JSON.stringify(command)} not found${command.includes("/") ? "" : " on PATH"}`;

/**
 * Why a server's `command` cannot start, or undefined when it is found (on `env`'s PATH, from `cwd`).
 * A whole command line in `command` (`npx -y pkg`, as Claude Desktop's users write it) whose first word
 * is found is said with its arguments moved to `args`.
 */
export function missingCommand(command: string, env: Record<string, string>, cwd: string | undefined): string | undefined {
  if (findCommand(command, env, cwd)) return undefined;
  const [first, ...rest] = command.trim().split(/\s+/);
  if (!rest.length || !first || !findCommand(first, env, cwd)) return commandNotFound(command);
  const split = `command names the program alone, its arguments go in args`;
  // quoted words are the shell's to split: only plain ones are split here
  if (/["'\\]/.test(command)) return `${commandNotFound(command)}: ${split}, one string each: command = ${JSON.stringify(first)}, args = [...]`;
  return `${commandNotFound(command)}: ${split}: command = ${JSON.stringify(first)}, args = [${rest.map((a) => JSON.stringify(a)).join(", ")}]`;
}

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
  private proc: Child | undefined;
  private tail = "";
  private closed = false;
  /** the requests sent and not yet answered: while there is one, the child holds the program open */
  private readonly inFlight = inFlight((waiting) => this.proc?.hold(waiting));

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
    if (!exe) throw new CommandNotFound(missingCommand(command, this.env, cwd) ?? commandNotFound(command));
    const proc = await spawnChild({ exe, args, env: this.env, cwd });
    this.proc = proc;
    proc.hold(false); // until a request waits for its answer
    const reading = this.readLines(proc.stdout);
    void this.readStderr(proc.stderr);
    void proc.exited.then(async (why) => {
      this.exitReason = why;
      // the last messages before the exit are delivered first, but a process it left running may hold stdout open
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([reading, new Promise<void>((resolve) => (timer = setTimeout(resolve, IO_DRAIN_MS)))]);
      clearTimeout(timer);
      proc.signal("SIGKILL"); // what it left running in its group: nothing closes this connection again to end it
      this.finish();
    });
  }

  async send(message: unknown): Promise<void> {
    const proc = this.proc;
    if (!proc || this.closed) throw new Error("not connected");
    this.inFlight.sent(message);
    try {
      await proc.write(JSON.stringify(message) + "\n");
    } catch (e) {
      // EPIPE and the like: the process is gone (its exit is reported a moment later)
      throw new Error(`not connected: ${errorText(e)}`);
    }
  }

  /**
   * Ends the server: stdin closed, SIGTERM to its group, SIGKILL after a short grace; then SIGKILL
   * to what the server left running in its group (`cmd &`), also when it had exited. Never throws.
   */
  async close(): Promise<void> {
    const proc = this.proc;
    if (proc?.running()) {
      proc.end();
      proc.signal("SIGTERM");
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([proc.exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      clearTimeout(timer);
    }
    proc?.signal("SIGKILL"); // what is left of its group once the server is gone (nothing: ESRCH, ignored)
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.proc?.hold(false); // a request left waiting, or a pipe another process holds, keeps nothing running
    this.onclose?.();
  }

  /**
   * Splits stdout into lines as bytes (a line is decoded once, when complete), holding at most
   * MAX_MESSAGE_BYTES of one: past that only its edges are kept, and at its end the request it
   * answers is failed (dropLine).
   */
  private async readLines(stream: AsyncIterable<Uint8Array>): Promise<void> {
    let parts: Uint8Array[] = [];
    let size = 0;
    let dropped: { head: Uint8Array; tail: Uint8Array; bytes: number } | undefined;
    const end = () => {
      if (dropped) this.dropLine(dropped.head, dropped.tail, dropped.bytes);
      else if (size > 0) this.line(new TextDecoder().decode(join(parts, size)));
      parts = [];
      size = 0;
      dropped = undefined;
    };
    try {
      for await (const chunk of stream) {
        for (let start = 0; ; ) {
          const nl = chunk.indexOf(10, start);
          const piece = chunk.subarray(start, nl < 0 ? chunk.length : nl);
          if (dropped) {
            dropped.bytes += piece.length;
            dropped.tail = lastBytes(dropped.tail, piece);
          } else if (size + piece.length > MAX_MESSAGE_BYTES) {
            const held = join([...parts, piece], size + piece.length);
            dropped = { head: held.slice(0, EDGE_BYTES), tail: held.slice(-EDGE_BYTES), bytes: held.length };
            parts = [];
            size = 0;
          } else if (piece.length > 0) {
            parts.push(piece);
            size += piece.length;
          }
          if (nl < 0) break;
          end();
          start = nl + 1;
        }
      }
    } catch {} // the pipe broke: the exit handler reports it
    end();
  }

  /**
   * A message too large to read: the request it answers (its id found at either end of the line)
   * gets an error response naming the size; without an id it is reported as noise.
   */
  private dropLine(head: Uint8Array, tail: Uint8Array, bytes: number): void {
    const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
    const id = messageId(new TextDecoder().decode(head), new TextDecoder().decode(tail));
    const why = `the server's answer was ${mb(bytes)}, more than the ${mb(MAX_MESSAGE_BYTES)} hey reads, so it was dropped; ask the tool for less (a range, a filter, a page)`;
    if (id === undefined) return this.onerror?.(new NoiseError(`${why} (no request id found in it)`));
    this.deliver({ jsonrpc: "2.0", id, error: { code: TOO_LARGE, message: why } });
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
    this.deliver(message);
  }

  private deliver(message: unknown): void {
    this.inFlight.received(message);
    this.onmessage?.(message);
  }

  private async readStderr(stream: AsyncIterable<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) this.tail = (this.tail + decoder.decode(chunk, { stream: true })).slice(-STDERR_TAIL_CHARS);
    } catch {} // the pipe broke with the process
  }
}

/**
 * The JSON-RPC error code of a dropped answer: in the implementation-defined range, clear of the
 * SDK's own -32000 (connection closed) and -32001 (timeout), which the client reads as such.
 */
const TOO_LARGE = -32090;

/** `parts` (holding `size` bytes) as one array. */
function join(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The last EDGE_BYTES of `kept` followed by `piece`. */
function lastBytes(kept: Uint8Array, piece: Uint8Array): Uint8Array {
  if (piece.length >= EDGE_BYTES) return piece.slice(-EDGE_BYTES);
  const both = join([kept, piece], kept.length + piece.length);
  return both.slice(-EDGE_BYTES);
}

/**
 * The id of a JSON-RPC message from its first and last bytes: `{"jsonrpc":"2.0","id":7,…` (most
 * servers) or `…,"jsonrpc":"2.0","id":7}` (the TypeScript SDK writes it last). Only an `id` that is
 * the outermost object's first or last member counts. Exported for tests.
 */
export function messageId(head: string, tail: string): number | string | undefined {
  const value = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
  const first = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + value).exec(head);
  const last = new RegExp(String.raw`,\s*"id"\s*:\s*` + value + String.raw`\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`).exec(tail);
  const raw = first?.[1] ?? last?.[1];
  return raw === undefined ? undefined : (JSON.parse(raw) as number | string);
}
