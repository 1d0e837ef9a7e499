// A loopback HTTP server for a release directory (SPEC §20 tests): install.sh and `hey upgrade`
// download from it as from a GitHub release. It logs each path asked for, and can answer a path
// with an error status, cut its body off halfway, go silent (before answering, or halfway through
// the body) or send the body in small parts with pauses between them.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, normalize } from "node:path";

export interface ReleaseServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** request paths, in order */
  requests: string[];
  /** answer `path` with `status` from now on */
  failWith(path: string, status: number): void;
  /** send the first half of `path`'s file, announcing its full length, then break the connection */
  cutOff(path: string): void;
  /** never answer `path` ("start"), or send its first half and then nothing more ("half") */
  stall(path: string, when: "start" | "half"): void;
  /** send `path`'s file in `parts` pieces, `gapMs` apart */
  trickle(path: string, parts: number, gapMs: number): void;
  stop(): void;
}

/** Serves the files under `root` (URL path = path under root). */
export function serveRelease(root: string): ReleaseServer {
  const requests: string[] = [];
  const failures = new Map<string, number>();
  const cut = new Set<string>();
  const stalls = new Map<string, "start" | "half">();
  const trickles = new Map<string, { parts: number; gapMs: number }>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      requests.push(path);
      const status = failures.get(path);
      if (status) return new Response(`error ${status}`, { status });
      const file = join(root, normalize(path).replace(/^(\.\.[/\\])+/, ""));
      if (!existsSync(file) || !statSync(file).isFile()) return new Response("Not Found", { status: 404 });
      const size = statSync(file).size;
      const stall = stalls.get(path);
      if (stall === "start") return new Promise<Response>(() => {});
      const half = Bun.file(file).slice(0, Math.floor(size / 2));
      if (stall === "half") {
        const body = new ReadableStream({
          async start(controller) {
            controller.enqueue(new Uint8Array(await half.arrayBuffer()));
          },
        });
        return new Response(body, { headers: { "content-length": String(size) } });
      }
      const slow = trickles.get(path);
      if (slow) return new Response(trickled(new Uint8Array(readFileSync(file)), slow.parts, slow.gapMs), { headers: { "content-length": String(size) } });
      if (!cut.has(path)) return new Response(Bun.file(file));
      const body = new ReadableStream({
        async start(controller) {
          controller.enqueue(new Uint8Array(await half.arrayBuffer()));
          controller.error(new Error("cut off by the test"));
        },
      });
      return new Response(body, { headers: { "content-length": String(size) } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    failWith: (path, status) => void failures.set(path, status),
    cutOff: (path) => void cut.add(path),
    stall: (path, when) => void stalls.set(path, when),
    trickle: (path, parts, gapMs) => void trickles.set(path, { parts, gapMs }),
    stop: () => void server.stop(true),
  };
}

function trickled(bytes: Uint8Array, parts: number, gapMs: number): ReadableStream<Uint8Array> {
  const size = Math.ceil(bytes.length / parts);
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent > 0) await Bun.sleep(gapMs);
      controller.enqueue(bytes.slice(sent, sent + size));
      sent += size;
      if (sent >= bytes.length) controller.close();
    },
  });
}
