// Every configured MCP server of a run (SPEC §14): never blocking. Servers connect in the
// background, concurrently. A server with a cached tool list is offered at once and started just
// after the first request has gone out (or a moment after start-up), so its start costs that
// request nothing; a server without one may hold the first request back until `startup_wait_ms`
// after it started, no longer; late tools join the next request, and that first request says
// which servers it went without however late it comes. A call to a tool of a server still
// connecting waits for that server only. A server's tools are offered as its tool selection and
// the permission rules allow (offer.ts). `/reload` applies the new set as a diff (issue 26): a
// server whose table did not change keeps running (a stateful server keeps its state); a new one
// starts as at start-up; a changed one that is serving is started beside it and takes over once it
// has connected — if it fails, the old one keeps serving and the reload says so. Pure:
// connecting, the cache and the output are given.
import { namedChanges, type Applied } from "../config/reload.ts";
import type { McpServerSettings, Settings } from "../config/settings.ts";
import type { AgentEvent } from "../kernel/output.ts";
import type { Tool } from "../kernel/tool.ts";
import type { ToolOrigin } from "../kernel/tool-calls.ts";
import { createGuidance } from "./guidance.ts";
import { changeNotices } from "./list-changes.ts";
import { holdNames, type ExposedTool, type McpTool } from "./names.ts";
import { toolWeigher } from "./heavy-tools.ts";
import { mcpSpec, offerTools, originFor, type Offer, type Refused } from "./offer.ts";
import { shapeResult, toolResultOf } from "./results.ts";
import { renameNotices } from "./said-renames.ts";
import { abortable, createServer, within, type Connect, type McpServer, type ServerStatus } from "./server.ts";
import type { ToolStore } from "./store.ts";
import { keptOld, running, sameServer } from "./takeover.ts";
import { withTail } from "./stderr-lines.ts";
import { failedBeforeNotice, failure, notReady, stillBusy } from "./start-notes.ts";
import { FIND_TOOLS } from "./deferred.ts";
import { createDeferring } from "./deferring.ts";
import { startSignedIn, type SignInWatch } from "./sign-in-watch.ts";
import type { McpManager } from "./manager-api.ts";

export type { McpManager } from "./manager-api.ts";

/** Servers with a cached list start this long after start-up at the latest (the REPL sends no request for a while). */
export const CACHED_START_DELAY_MS = 200;
/** `/reload` waits at most this long for a changed server to take over before it reports: long enough for a local server, and
 * a remote one that takes longer still takes over, or is given up, afterwards — with a line saying so. */
export const TAKEOVER_WAIT_MS = 10_000;

export type McpEvent = Extract<AgentEvent, { type: "mcp" }>;

export interface ManagerDeps {
  connect: Connect;
  store: ToolStore;
  /** `/reload`: why a stdio server's command cannot be started (not found with its PATH and cwd), or undefined */
  missingCommand(command: string, settings: McpServerSettings): string | undefined;
  /** a server connected, failed or stopped: reported once each time it happens */
  report(event: McpEvent): void;
  /** a warning about names; each distinct one is passed once */
  warn(message: string): void;
  /** the model's tool list grew: find_tools, or a call by its name, loaded a deferred tool (deferring.ts) */
  notice?(message: string): void;
  /** whether the permission rules refuse every call of the tool the model would see as `name`, from `origin` (none: hey's own) (it is then not offered) */
  refused(name: string, origin?: ToolOrigin): Refused;
  /** the tokens a request is built to now (context/window.ts effectiveBudget): a server whose tools take much of it is warned about */
  budget(): number;
  /** `[mcp] defer_tools`, asked at each request; absent: never (every tool's schema in every request) */
  deferTools?(): Settings["mcp"]["deferTools"];
  /** the shared sign-ins, watched for one made outside this hey while a server waits for it; absent: only /mcp login brings such a server back */
  signIns?: SignInWatch;
  now(): number;
}

/** An MCP tool as the loop sees it: a plain Tool that knows its server. */
export type McpToolEntry = Tool & { server: string };

interface Generation {
  servers: McpServer[];
  startedAt: number;
  waitMs: number;
  /** when the servers with a cached list start (undefined once they have) */
  deferred: ReturnType<typeof setTimeout> | undefined;
  /** the first request has said which servers it went without (waitForStarting): later ones do not */
  checked: boolean;
}

/**
 * `servers`: the enabled servers to run (none with --no-mcp; `off` keeps it so across /reload).
 * `builtins`: the names of hey's own tools: a server's tool named like one is offered as
 * `<server>_<name>` (names.ts), said once. `onDemand`: a server starts only when something uses
 * it (`/mcp` waits for it, a call, a prompt, a resource), never in the background: a one-shot
 * command (`hey -p /help`) spawns nothing; what the requests would offer is the cached lists.
 */
export function createMcpManager(
  config: { servers: McpServerSettings[]; startupWaitMs: number; off: boolean; builtins?: readonly string[]; onDemand?: boolean },
  deps: ManagerDeps,
): McpManager {
  const warned = new Set<string>();
  const weigh = toolWeigher(deps.budget); // each server's tools' cost once a run, and all of theirs
  // whole: a request goes out with `o`, or no server is still starting without a list
  const say = (o: Offer, sending = false) => {
    const whole = sending || !statuses().some((s) => s.state === "connecting" && s.tools === undefined);
    for (const m of [...o.warnings, ...weigh(o, whole)]) if (!warned.has(m)) warned.add(m), deps.warn(m); // once a run
    renames(o.renamed); // once per change of the lists they are about (said-renames.ts)
  };
  const builtins = [...(config.builtins ?? []), ...(deps.deferTools ? [FIND_TOOLS] : [])]; // a server's find_tools is offered as <server>_find_tools
  const keep = (server: string) => current.servers.find((s) => s.settings.name === server)?.settings.defer === false;
  const deferring = createDeferring({ mode: () => deps.deferTools?.() ?? "never", budget: deps.budget, keep, notice: deps.notice });
  const guidance = createGuidance();
  const listChanged = changeNotices({ now: deps.now, later: (fn, ms) => (setTimeout(fn, ms) as { unref?: () => void }).unref?.(), warn: deps.warn });
  /** the names this run's requests offered, by heldKey: a tool keeps its name (names.ts); and the last request's tools */
  const held = new Map<string, string>();
  let lastOffered: ExposedTool[] = [];
  const statuses = () => current.servers.map((s) => s.status());
  const enabled = (servers: McpServerSettings[]) => (config.off ? [] : servers.filter((s) => s.enabled));
  const saving = new Set<Promise<void>>(); // cache writes and removals, awaited by close so a short run still leaves its cache right
  const track = (write: Promise<void>) => {
    const p = write.finally(() => saving.delete(p));
    saving.add(p);
  };
  const save = (settings: McpServerSettings, tools: McpTool[], told?: string) => track(deps.store.save(settings, tools, told));
  const renames = renameNotices({ store: deps.store, servers: () => current.servers, warn: deps.warn, track });
  /** servers with no cached list whose last start failed, and why: a request does not wait for them (a server down for days holds no run up) */
  const failedLast = new WeakMap<McpServer, string | undefined>();
  const failedWhen = new WeakMap<McpServer, number | undefined>(); // and when, for /mcp
  /** servers reported not ready: one a /reload keeps, still starting, is not said again by its first request */
  const saidNotReady = new WeakSet<McpServer>();
  /** the tool names each server listed last while connected */
  const lastListed = new WeakMap<McpServer, string[]>();
  /** changed servers starting beside the one they replace, by name; they take over once connected */
  const pending = new Map<string, McpServer>();
  /** a `/reload` is waiting for these to settle and will say how they went itself */
  const awaited = new Set<McpServer>();

  /** A new generation: `reused` servers keep running, the others start (a server with a cached list a moment later). */
  const begin = (servers: McpServerSettings[], waitMs: number, reused: readonly McpServer[] = [], reload = false): Generation => {
    const gen: Generation = { servers: [], startedAt: deps.now(), waitMs, deferred: undefined, checked: false };
    gen.servers = servers.map((s) => reused.find((r) => r.settings === s) ?? serverIn(s, deps.store.load(s), deps.store.instructions(s)));
    for (const s of gen.servers) if (!reload && !s.status().cached) failedLast.set(s, deps.store.failedLast(s.settings)); // /reload is how one comes back
    for (const s of gen.servers) if (failedLast.get(s) !== undefined) failedWhen.set(s, deps.store.failedWhen(s.settings));
    if (config.onDemand) return gen;
    // the model hears of it with every request: the user once a run (the same failure again is not said twice)
    for (const s of gen.servers)
      if (failedLast.get(s) !== undefined) deps.warn(failedBeforeNotice(s.settings.name, failedLast.get(s)!, failedWhen.get(s), deps.now()));
    for (const s of gen.servers) if (!s.started && !s.status().cached) s.start();
    if (gen.servers.some((s) => !s.started)) {
      gen.deferred = setTimeout(() => startDeferred(gen), CACHED_START_DELAY_MS);
      (gen.deferred as { unref?: () => void }).unref?.();
    }
    return gen;
  };
  const serverIn = (settings: McpServerSettings, cached: McpTool[] | undefined, instructions?: string): McpServer => {
    deps.signIns?.cleared(settings.name); // started anew by the user (/mcp login, /reload): the watch may restart it once again
    const self: McpServer = createServer(settings, {
      connect: deps.connect,
      cached,
      instructions,
      now: deps.now,
      signedInAgain: () => settings.url !== undefined && deps.signIns?.fresh(settings.name, settings.url) === true,
      events: {
        changed: (s, refused) => {
          if (s.state === "connected") lastListed.set(self, names(s.tools));
          if (pending.get(settings.name) === self) return takeOver(self, s);
          if (!current.servers.includes(self)) return;
          if (s.state === "connected") connected(s, offered(current));
          if (s.state === "auth_required") track(deps.store.forget(settings)), settings.url && deps.signIns?.refused(settings.name, settings.url, refused); // the next run does not offer tools it cannot call
          if (s.state === "failed" && s.tools === undefined) track(deps.store.markFailed(settings, failure(s))); // the next run does not wait for it, and says why
          const again = s.state === "failed" && failedLast.get(self) !== undefined && failedLast.get(self) === failure(s); // said at start
          if ((s.state === "failed" && !again) || s.state === "stopped" || s.state === "auth_required")
            deps.report({ type: "mcp", server: s.name, state: s.state, error: withTail(s) });
        },
        listed: (tools) => {
          save(settings, tools, self.status().instructions);
          // a list the server changed while connected (tools/list_changed, a new session): said, as a connection is
          const before = lastListed.get(self);
          lastListed.set(self, names(tools));
          if (before !== undefined && self.status().state === "connected" && current.servers.includes(self)) {
            listChanged(settings.name, before, names(tools)); // folded: a server that flaps its list is said at most every few seconds
          }
        },
        answered: () => deps.signIns?.cleared(settings.name),
      },
    });
    return self;
  };
  /** A changed server started beside the old one: connected, it takes the old one's place; failed, the old one stays. */
  const takeOver = (next: McpServer, s: ServerStatus) => {
    if (s.state === "connecting") return;
    pending.delete(s.name);
    const i = current.servers.findIndex((x) => x.settings.name === s.name);
    if (s.state === "connected" && i >= 0) {
      const old = current.servers[i]!;
      current.servers[i] = next;
      void old.close();
      connected(s, offered(current));
      return;
    }
    void next.close();
    if (!awaited.has(next)) deps.warn(keptOld(s));
  };
  /** Reports a server that connected, with how many of its tools the model is offered when that is fewer. */
  const connected = (s: ServerStatus, offer: Offer) => {
    const tools = s.tools?.length ?? 0;
    const shown = offer.tools.filter((t) => t.server === s.name).length;
    deps.report({ type: "mcp", server: s.name, state: "connected", tools, ...(shown < tools ? { offered: shown } : {}) });
    say(deferring.marked(offer)); // what requests carry is weighed: a deferred tool is not in every request
  };
  const startDeferred = (gen: Generation) => {
    clearTimeout(gen.deferred);
    gen.deferred = undefined;
    for (const s of gen.servers) if (!s.started) s.start(); // a server that failed meanwhile stays failed
  };
  /**
   * The tools offered now, by server, with the names the model sees (selected, not refused by the
   * rules, never a built-in's: `own` adds the names of the built-ins a request is made with).
   */
  const offered = (gen: Generation, own: readonly string[] = []) => {
    const lists = gen.servers.flatMap((s) => {
      const st = s.status();
      return st.tools && st.state !== "failed" && st.state !== "closed" && st.state !== "auth_required"
        ? [{ server: st.name, tools: st.tools, selection: s.settings }]
        : [];
    });
    return offerTools(lists, deps.refused, own.length ? [...new Set([...builtins, ...own])] : builtins, held);
  };
  let current = begin(enabled(config.servers), config.startupWaitMs);
  // a cached list is offered at once: a renamed tool is said now (when new), not after an answer; a one-shot command offers nothing
  if (!config.onDemand) renames(offered(current).renamed);

  /**
   * The first request of a generation waits for the servers with no list yet, still connecting, and
   * not failed last run, until the start-up wait is over (at once when it already is: the user typed a
   * while), then says those it goes without: a server still retrying 503s is recorded as failing,
   * one merely slow is reported not ready — whenever that first request comes. Later requests wait for none.
   */
  async function waitForStarting(gen: Generation, signal: AbortSignal, look: boolean): Promise<void> {
    if (gen.checked) return;
    const left = gen.startedAt + gen.waitMs - deps.now();
    const waiting = gen.servers.filter(
      (s) => s.started && s.status().state === "connecting" && s.status().tools === undefined && failedLast.get(s) === undefined,
    );
    if (left > 0 && waiting.length > 0) await abortable(within(Promise.all(waiting.map((s) => s.settled())), left), signal);
    if (gen.checked || look) return; // a request beside this one has said them; /mcp or /context sends none
    gen.checked = true; // an aborted wait leaves it to the next request
    const after = left > 0 ? gen.waitMs : deps.now() - gen.startedAt; // how long they have had
    for (const s of waiting) {
      // still retrying 503s: failing, not slow (it would fail after the run ends): the next runs do not wait
      if (s.status().busy) track(deps.store.markFailed(s.settings, stillBusy(after)));
      // merely slow (a container starting, npx downloading): said with the key that waits longer, else a -p run never has its tools
      else if (s.status().state === "connecting" && !saidNotReady.has(s)) {
        saidNotReady.add(s);
        deps.report({ type: "mcp", server: s.settings.name, state: "not_ready", error: notReady(after) });
      }
    }
  }

  function toTool(gen: Generation, e: ExposedTool): McpToolEntry {
    const server = gen.servers.find((s) => s.settings.name === e.server)!;
    return {
      ...mcpSpec(e),
      server: e.server,
      readOnly: () => e.tool.readOnly === true, // its calls run side by side only when its server says it changes nothing
      run: async (args, ctx) => {
        const r = await server.call(e.tool.name, args, ctx.signal, ctx.progress);
        if ("error" in r) return { output: r.error, isError: true };
        return toolResultOf(shapeResult(r.result), (text) => deps.store.saveFull(e.server, text));
      },
    };
  }

  /**
   * `/reload`'s switch: unchanged servers are carried over as they run; a changed one that is
   * serving is started beside the old one (which takes over only once it connects, waited for up
   * to TAKEOVER_WAIT_MS); any other changed or new one starts in the old one's place; removed ones close.
   */
  async function switchTo(next: McpServerSettings[], waitMs: number, changes: string[]): Promise<Applied> {
    const old = current;
    clearTimeout(old.deferred);
    const byName = new Map(old.servers.map((s) => [s.settings.name, s]));
    const reused: McpServer[] = [];
    const beside: McpServer[] = [];
    const settings = next.map((s) => {
      const was = byName.get(s.name);
      if (was && sameServer(was.settings, s) && running(was)) return (reused.push(was), was.settings);
      if (was?.status().state === "connected") {
        reused.push(was); // it keeps serving until the new table's server has connected
        const starting = serverIn(s, undefined);
        pending.get(s.name)?.close();
        pending.set(s.name, starting);
        beside.push(starting);
        return was.settings;
      }
      return s;
    });
    current = begin(settings, waitMs, reused, true);
    guidance.reset(changes.some((c) => / mcp server /.test(c))); // the reload's note says which tools changed
    await Promise.all(old.servers.filter((s) => !reused.includes(s)).map((s) => s.close()));
    if (beside.length === 0) return { changes, warnings: [] };
    for (const s of beside) awaited.add(s), s.start();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(beside.map((s) => s.settled())), new Promise<void>((resolve) => (timer = setTimeout(resolve, TAKEOVER_WAIT_MS)))]);
    clearTimeout(timer);
    const warnings: string[] = [];
    const outcome = new Map<string, string>();
    for (const s of beside) {
      awaited.delete(s);
      const name = s.settings.name;
      if (pending.get(name) === s) outcome.set(name, " (still starting: the old one serves until it connects)");
      else if (!current.servers.includes(s)) {
        outcome.set(name, " (not started: the old one keeps serving)");
        warnings.push(keptOld(s.status()));
      }
    }
    return { changes: changes.map((c) => c + (outcome.get(/^~ mcp server (.+)$/.exec(c)?.[1] ?? "") ?? "")), warnings };
  }

  return {
    async tools(builtinTools, signal, look = false) {
      const gen = current;
      if (gen.servers.length === 0) return builtinTools;
      await waitForStarting(gen, signal, look);
      const again = deps.signIns ? startSignedIn(gen.servers, deps.signIns) : []; // signed in elsewhere: this request has its tools
      if (again.length) await abortable(within(Promise.all(again.map((s) => s.settled())), gen.waitMs), signal);
      // the first request is on its way: the servers it did not wait for start now
      if (gen.deferred !== undefined) setTimeout(() => current === gen && gen.deferred !== undefined && startDeferred(gen), 0);
      const own = builtinTools.map((t) => t.name);
      const exposed = offered(gen, own);
      const { tools, sent } = deferring.request(exposed.tools, (e) => toTool(gen, e), { leftOut: exposed.leftOut, own: own.filter((n) => !deps.refused(n)) });
      say({ ...exposed, tools: sent }, true);
      holdNames(held, (lastOffered = exposed.tools)); // a deferred tool is offered too: its name is held, a call by it runs
      return [...builtinTools, ...tools];
    },
    status: () =>
      current.servers.map((s) => ({ ...s.status(), ...(failedLast.get(s) !== undefined && { failedBefore: failedLast.get(s), failedAt: failedWhen.get(s) }) })),
    offer: () => deferring.marked(offered(current)),
    deferred: (name) => deferring.tool(name, offered(current).tools, (e) => toTool(current, e)),
    resume: (loaded) => deferring.resume(loaded),
    // asked at every call: hey's own tools are never an MCP tool's name
    origin: (name) => (builtins.includes(name) ? undefined : originFor(name, lastOffered, () => offered(current))),
    instructions: () => guidance.system(statuses(), offered(current).tools),
    note: (answered) => guidance.note(statuses(), lastOffered, answered, offered(current).selection),
    async settled(server, signal) {
      const s = current.servers.find((x) => x.settings.name === server);
      if (!s) return;
      if (!s.started) s.start();
      await abortable(s.settled(), signal);
    },
    prompts: () => current.servers.flatMap((s) => (s.status().state === "connected" ? [{ server: s.settings.name, prompts: s.status().prompts ?? [] }] : [])),
    async get(server, what, signal) {
      const s = current.servers.find((x) => x.settings.name === server);
      if (!s) return { error: `no MCP server ${server} is running${config.off ? " (--no-mcp)" : ""}` };
      return s.get(what, signal);
    },
    async restart(server) {
      const gen = current;
      const i = gen.servers.findIndex((x) => x.settings.name === server);
      if (i < 0) return false;
      const old = gen.servers[i]!;
      const next = serverIn(old.settings, old.status().tools, old.status().instructions);
      gen.servers[i] = next;
      await old.close();
      next.start();
      await next.settled();
      return true;
    },
    pickUpSignIns: () => void (deps.signIns && startSignedIn(current.servers, deps.signIns)),
    reloadable: {
      name: "mcp",
      async check(settings: Settings) {
        const next = enabled(settings.mcp.servers);
        const byName = new Map(current.servers.map((s) => [s.settings.name, s]));
        // only servers that run count: with --no-mcp, or `enabled = false`, nothing starts or stops
        const before = current.servers.map((s) => s.settings);
        const changes = namedChanges("mcp server", before, next);
        const waitChanged = !config.off && next.length > 0 && settings.mcp.startupWaitMs !== current.waitMs;
        // a server kept as it runs needs no check; a new or changed one must have a command to start
        const errors = next.flatMap((s) => {
          const was = byName.get(s.name);
          if (was && sameServer(was.settings, s) && running(was)) return [];
          const why = s.command === undefined ? undefined : deps.missingCommand(s.command, s);
          return why ? [`${s.at} ${why}`] : [];
        });
        // an unchanged server that is not running (failed, stopped) starts again: /reload is how it comes back
        const restarted = next.flatMap((s) => {
          const was = byName.get(s.name);
          return was && sameServer(was.settings, s) && !running(was)
            ? [`~ mcp server ${s.name} (started again: it had ${was.status().state.replace("_", " ")})`]
            : [];
        });
        const all = [...changes, ...restarted, ...(waitChanged ? [`~ [mcp] startup_wait_ms ${current.waitMs} → ${settings.mcp.startupWaitMs}`] : [])];
        return { errors, warnings: [], changes: all, apply: () => switchTo(next, settings.mcp.startupWaitMs, all) };
      },
    },
    async close() {
      clearTimeout(current.deferred);
      await Promise.all([...current.servers.map((s) => s.close()), ...[...pending.values()].map((s) => s.close()), ...saving]);
    },
  };
}

const names = (tools: McpTool[] | undefined) => (tools ?? []).map((t) => t.name);
