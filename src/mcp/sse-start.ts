// The start of the legacy SSE transport, bounded (SPEC §14): the SDK's start opens the event
// stream and waits for its `endpoint` event with no limit of its own, so a server that opens the
// stream and never names the endpoint to post to (a proxy that buffers event streams does this)
// left the server "connecting" in /mcp for ever, and a session being replaced never done. Pure.

/** A transport's start that did not finish within its limit (the transport is closed). */
export class StartTimeout extends Error {
  override name = "StartTimeout";
}

/** What /mcp and the model read when a server's event stream named no endpoint in time. */
export const noEndpoint = (server: string, ms: number) =>
  `its event stream named no endpoint to post to within ${ms / 1000} s ([mcp.${server}] timeout_ms); a proxy that buffers event streams does this`;

/**
 * `transport`, its start bounded by the server's `timeout_ms` (the limit of every request that
 * waits on a word from it): past it, the start rejects with a StartTimeout saying so, and the
 * transport is closed (the event stream it holds open is let go).
 */
export function boundedStart<T extends { start(): Promise<void>; close(): Promise<void> }>(
  transport: T,
  { name, timeoutMs }: { name: string; timeoutMs: number },
): T {
  const start = transport.start.bind(transport);
  transport.start = () =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new StartTimeout(noEndpoint(name, timeoutMs)));
        transport.close().catch(() => {});
      }, timeoutMs);
      start()
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  return transport;
}
