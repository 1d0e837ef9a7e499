// A loopback model server that judges each request as a vendor does: `judge` returns the error a
// vendor would answer that body with (its status and JSON, in the vendor's own words), or the
// Reply to stream. It never runs out of answers, so a client that sends a refused request again
// and again is seen doing so (counted in `bodies`), not stopped by an empty queue.
import type { Reply } from "./replay-server.ts";

export type Verdict = { status: number; error: unknown } | Reply;

export interface RefusingServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** every POST body, parsed, in order */
  bodies: Record<string, unknown>[];
  /** the path of each POST, in order */
  paths: string[];
  stop(): void;
}

export function startRefusingServer(judge: (body: Record<string, unknown>, path: string) => Verdict): RefusingServer {
  const bodies: Record<string, unknown>[] = [];
  const paths: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      if (req.method !== "POST") return new Response("not found", { status: 404 });
      const body = (await req.json()) as Record<string, unknown>;
      const path = new URL(req.url).pathname;
      bodies.push(body);
      paths.push(path);
      const verdict = judge(body, path);
      if ("error" in verdict) return Response.json(verdict.error, { status: verdict.status });
      return new Response(new Blob(verdict.chunks as Uint8Array<ArrayBuffer>[]), { status: verdict.status, headers: verdict.headers });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, bodies, paths, stop: () => server.stop(true) };
}
