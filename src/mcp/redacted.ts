// The one door MCP text comes into hey through with the secrets hey knows replaced: every word a
// server sends or causes — its tool list (descriptions, schemas), `instructions`, prompts, the
// results of calls and gets, why it failed to start or stopped (an HTTP 500 that echoes the
// Authorization header sent, a stderr that prints the token its env gave it) — is redacted before
// the manager keeps it. So the terminal's lines, `/mcp`, the notes the model reads, the MCP cache
// and the full-output files all get it as hidden as a tool result is. Pure.
import { redact, redactDeep } from "../config/secrets.ts";
import { CallError, ConnectError, type Connect, type Connection } from "./server.ts";

/** `connect` whose connections, hook calls and errors carry no value of `secrets()` (read at each use: a sign-in's token joins). */
export function redactingConnect(connect: Connect, secrets: () => readonly string[]): Connect {
  const text = (s: string) => redact(s, secrets());
  const deep = <T>(v: T) => redactDeep(v, secrets());
  /** `e` with its words redacted, of the same kind (a ConnectError keeps `auth`, a CallError its kind) */
  const hidden = (e: unknown): unknown => {
    if (e instanceof ConnectError) return new ConnectError(text(e.message), text(e.stderr), e.auth);
    if (e instanceof CallError) return new CallError(e.kind, text(e.message));
    if (!(e instanceof Error)) return typeof e === "string" ? text(e) : e;
    const said = text(e.message);
    if (said === e.message) return e;
    const copy = new Error(said);
    copy.name = e.name; // an AbortError stays one
    return copy;
  };
  /** what `p` resolves to (`keep`: as it is, else redacted), or its error redacted */
  const through = async <T>(p: Promise<T>, keep = false): Promise<T> => {
    try {
      const v = await p;
      return keep ? v : deep(v);
    } catch (e) {
      throw hidden(e);
    }
  };
  return async (settings, hooks, signal) => {
    const c = await through(
      connect(
        settings,
        {
          ...hooks,
          onClose: (why, stderr, auth) => hooks.onClose(text(why), text(stderr), auth),
          onTools: (tools) => hooks.onTools(deep(tools)),
        },
        signal,
      ),
      true,
    );
    const connection: Connection = {
      tools: deep(c.tools),
      prompts: deep(c.prompts),
      ...(c.instructions === undefined ? {} : { instructions: text(c.instructions) }),
      call: (name, args, opts) => through(c.call(name, args, opts)),
      get: (what, opts) => through(c.get(what, opts)),
      close: () => c.close(),
    };
    return connection;
  };
}
