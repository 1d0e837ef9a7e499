// Drives an interactive program in a real terminal (tmux, on a private socket) for REPL tests:
// start it, type, read the screen. tmux is installed by .ci/run when missing.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Terminal {
  /** types `text` literally, then Enter unless `enter` is false */
  type(text: string, enter?: boolean): void;
  /** the visible screen and scrollback, lines joined */
  screen(): string;
  /** waits until the screen matches (or `pattern()` holds); throws with the screen when it does not in time */
  waitFor(pattern: RegExp | string | (() => boolean), timeoutMs?: number): Promise<string>;
  /** whether the program has exited (the pane stays, for its last output) */
  exited(): boolean;
  stop(): void;
}

/** Runs `argv` in a fresh tmux server with exactly `env`, in `cwd`, on a 160×50 terminal. */
export function startTerminal(argv: string[], opts: { cwd: string; env: Record<string, string> }): Terminal {
  const dir = mkdtempSync(join(tmpdir(), "hey-tmux-"));
  const socket = join(dir, "socket");
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const script = join(dir, "run.sh");
  const vars = Object.entries({ TERM: "xterm-256color", ...opts.env }).map(([k, v]) => `${k}=${quote(v)}`);
  writeFileSync(script, `cd ${quote(opts.cwd)} && exec env -i ${vars.join(" ")} ${argv.map(quote).join(" ")}\n`);
  const conf = join(dir, "tmux.conf");
  writeFileSync(conf, "set -g remain-on-exit on\nset -g history-limit 5000\n");
  const tmux = (...args: string[]) => {
    const r = Bun.spawnSync(["tmux", "-S", socket, "-f", conf, ...args], { stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`tmux ${args[0]}: ${r.stderr.toString()}`);
    return r.stdout.toString();
  };
  tmux("new-session", "-d", "-s", "t", "-x", "160", "-y", "50", `sh ${script}`);
  const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-5000", "-t", "t");
  return {
    type(text, enter = true) {
      if (text) tmux("send-keys", "-t", "t", "-l", text);
      if (enter) tmux("send-keys", "-t", "t", "Enter");
    },
    screen,
    async waitFor(pattern, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = screen();
        if (typeof pattern === "string" ? text.includes(pattern) : typeof pattern === "function" ? pattern() : pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}; the screen:\n${text}`);
        await Bun.sleep(50);
      }
    },
    exited: () => tmux("display-message", "-p", "-t", "t", "#{pane_dead}").trim() === "1",
    stop() {
      try {
        tmux("kill-server");
      } catch {}
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
