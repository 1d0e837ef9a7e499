// A loopback HTTP server for a release directory (SPEC §20 tests): install.sh and `hey upgrade`
// download from it as from a GitHub release. It logs each path asked for, and can answer a path
// with an error status or cut its body off halfway.
import { existsSync, statSync } from "node:fs";
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
  stop(): void;
}

/** Serves the files under `root` (URL path = path under root). */
export function serveRelease(root: string): ReleaseServer {
  const requests: string[] = [];
  const failures = new Map<string, number>();
  const cut = new Set<string>();
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
      if (!cut.has(path)) return new Response(Bun.file(file));
      const size = statSync(file).size;
      const half = Bun.file(file).slice(0, Math.floor(size / 2));
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
    stop: () => void server.stop(true),
  };
}
