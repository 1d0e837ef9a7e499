// Real proxies from Debian's packages for tests (.ci/run installs them): tinyproxy (an HTTP proxy
// with CONNECT and BasicAuth) and microsocks (SOCKS5 with username/password), each started on a
// free loopback port and stopped by `close()`.
//
// hey sends every loopback host direct, whatever the proxy settings (SPEC §16), so a test that
// must go through a proxy names the mock server as 0.0.0.0: not loopback to hey, while Linux
// connects a dial of 0.0.0.0 to this machine — which is what the proxies do.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RealProxy {
  port: number;
  /** http://127.0.0.1:PORT or socks5://127.0.0.1:PORT, without credentials */
  url: string;
  /** the URL with `user:password@` in it */
  urlWith(user: string, password: string): string;
  close(): void;
}

/** The host a test's model URL uses to be proxied: see the file comment. */
export const PROXIED_HOST = "0.0.0.0";

const READY_TIMEOUT_MS = 3_000;

/** A port nothing listens on right now (another process could take it before we do: callers retry). */
export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/**
 * tinyproxy on a free port. `credentials`: BasicAuth (a CONNECT without them gets 407, with wrong
 * ones 401). `onlyPort443`: CONNECT to any other port is refused with 403 ("Access violation").
 * `filtered`: a host pattern its Filter denies with 403 "Filtered", forwarded requests included.
 */
export async function startTinyproxy(
  opts: { credentials?: { user: string; password: string }; onlyPort443?: boolean; filtered?: string } = {},
): Promise<RealProxy> {
  const dir = mkdtempSync(join(tmpdir(), "hey-tinyproxy-"));
  try {
    return await start(
      "http",
      (port) => {
        const conf = join(dir, "tinyproxy.conf");
        const lines = [`Port ${port}`, "Listen 127.0.0.1", "Timeout 30", "MaxClients 50", "LogLevel Critical"];
        if (opts.credentials) lines.push(`BasicAuth ${opts.credentials.user} ${opts.credentials.password}`);
        if (opts.onlyPort443) lines.push("ConnectPort 443");
        if (opts.filtered) {
          writeFileSync(join(dir, "filter"), `${opts.filtered}\n`);
          lines.push(`Filter "${join(dir, "filter")}"`, "FilterDefaultDeny No");
        }
        writeFileSync(conf, lines.join("\n") + "\n");
        return ["tinyproxy", "-d", "-c", conf];
      },
      () => rmSync(dir, { recursive: true, force: true }),
    );
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** microsocks on a free port; with `credentials` only username/password authentication is accepted. */
export function startMicrosocks(opts: { credentials?: { user: string; password: string } } = {}): Promise<RealProxy> {
  return start("socks5", (port) => {
    const auth = opts.credentials ? ["-u", opts.credentials.user, "-P", opts.credentials.password] : [];
    return ["microsocks", "-i", "127.0.0.1", "-p", String(port), ...auth];
  });
}

/** Spawns `command(port)` until one starts listening (a port taken meanwhile makes the proxy exit: try another). */
async function start(scheme: string, command: (port: number) => string[], cleanup = () => {}): Promise<RealProxy> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = freePort();
    const proc = Bun.spawn(command(port), { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    if (await listening(port, proc)) {
      const url = `${scheme}://127.0.0.1:${port}`;
      return {
        port,
        url,
        urlWith: (user, password) => `${scheme}://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
        close() {
          proc.kill("SIGKILL");
          cleanup();
        },
      };
    }
    proc.kill("SIGKILL");
    await proc.exited;
  }
  cleanup();
  throw new Error(`${command(0)[0]} did not start listening on a loopback port`);
}

async function listening(port: number, proc: Bun.Subprocess): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && proc.exitCode === null) {
    const connected = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
      (s) => (s.end(), true),
      () => false,
    );
    if (connected) return true;
    await Bun.sleep(20);
  }
  return false;
}
