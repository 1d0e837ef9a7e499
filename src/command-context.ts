// What slash commands reach (ui/commands.ts's CommandContext) from a run: its agent, its settings
// and the runtime's swaps. The one-shot command (one-command.ts) and the REPL (interactive.ts) build it
// the same way.
import { sep } from "node:path";
import type { Places } from "./fs/places.ts";
import { configuredWindow } from "./config/settings.ts";
import { effectiveBudget } from "./context/window.ts";
import { totalToolWarning } from "./mcp/heavy-tools.ts";
import { specTokens } from "./mcp/offer.ts";
import { formatStatus, uncountedLine, whichServer } from "./mcp/status.ts";
import { calledTools, capFor, overCap } from "./mcp/tool-cap.ts";
import type { Runtime } from "./runtime.ts";
import { strayNotice } from "./trust/policy.ts";
import { movedFrom } from "./fs/work-dir.ts";
import { strayResources } from "./trust/store.ts";
import type { CommandContext } from "./ui/commands.ts";
import { notedSkills } from "./prompt/skill-listing.ts";
import { shownPath } from "./prompt/source.ts";
import { DECLINED_SKILL, HELD_SKILL } from "./prompt/held-lines.ts";
import { loadSkills, skillFolders } from "./skills/load.ts";
import { formatSkills } from "./ui/skills-list.ts";
import { shortPath } from "./ui/intro.ts";

/**
 * What commands reach; `print`: lines a command shows as it goes (a sign-in's URL); `ask`: the
 * REPL's question, for a `/reload` that finds a change giving the agent more (one-shot: none, the
 * change is left out) and for `/trust`; `skillsOn`: false with --no-skills.
 */
export function commandContext(
  runtime: Runtime,
  here: Places,
  signal: AbortSignal,
  print: (text: string) => void,
  ask?: (question: string) => Promise<string | undefined>,
  skillsOn = true,
): CommandContext {
  return {
    agent: runtime.agent,
    here,
    signal,
    terminal: runtime.terminal,
    providers: () => runtime.settings.providers,
    fallbacks: () => runtime.settings.fallbacks?.models ?? [],
    switchModel: runtime.switchModel,
    reload: async () => {
      const told: string[] = [];
      const moved = movedFrom(here.cwd, (line) => told.push(line)); // what it would read and trust at the old path is not the project's
      if (moved) return { ok: false, changes: [], errors: [moved], warnings: [] };
      const result = await runtime.reload(ask);
      return { ...result, warnings: [...told, ...result.warnings] };
    },
    setTrust: (trusted: boolean) => runtime.setTrust(trusted, ask), // /trust lists what it would run and asks
    earlierRuns: runtime.earlierRuns,
    uncounted: () => uncountedLine(runtime.mcp.status()),
    redact: runtime.redact,
    skills: (columns: number) => (skillsOn ? skillsListing(runtime, here, columns) : "skills are off in this run (--no-skills)"),
    mcpStatus: async (s: AbortSignal) => {
      const starting = runtime.mcp
        .status()
        .filter((x) => x.state === "connecting")
        .map((x) => runtime.mcp.settled(x.name, s)); // each, up to startup_wait_ms
      await Promise.race([Promise.all(starting), Bun.sleep(runtime.settings.mcp.startupWaitMs)]);
      const tools = await runtime.requestTools(s, true); // a look: the first request says the servers it goes without
      const own = tools.filter((t) => t.server === undefined).reduce((n, t) => n + specTokens(t), 0);
      const withheld = runtime.mcpOff ? [] : runtime.withheldServers(); // named in the files, not started: why, and what starts them
      // server files below the root, never read: said in the listing too (x147), as start-up's line went to stderr or scrolled away
      const stray = runtime.mcpOff ? [] : strayResources(here.cwd, here.root).filter((p) => !p.endsWith(sep));
      const unread = stray.length ? strayNotice(stray, here.root) : undefined;
      const mcp = runtime.settings.mcp.servers;
      const status = formatStatus(runtime.mcp.status(), runtime.mcp.offer(), runtime.mcpOff, own, mcp, withheld, {
        oneShot: runtime.oneShot,
        unread,
        userFile: shortPath(here.userConfig, here.home),
      });
      const untrusted = runtime.mcpOff ? undefined : runtime.leftOut(); // servers in the project's files that did not load
      const { protocol, baseUrl } = runtime.settings.provider;
      const capped = overCap(capFor(protocol, baseUrl), tools, calledTools(runtime.agent.messages))?.why; // more tools than the model's API takes: which are left out
      const budget = effectiveBudget(runtime.settings.agent.budgetTokens, configuredWindow(runtime.settings));
      // all servers' tools fill the budget: the heaviest (a one-shot run, hey mcp, has just said it on stderr)
      const heavy = runtime.mcpOff || runtime.oneShot ? undefined : totalToolWarning(runtime.mcp.offer(), budget);
      return [status, heavy && `hey: ${heavy}`, capped && `hey: ${capped}`, untrusted].filter(Boolean).join("\n");
    },
    mcpAuth: async (verb: "login" | "logout", name: string, s: AbortSignal) => {
      if (name === "") return { ok: false, text: `hey: ${whichServer(`/mcp ${verb}`, runtime.settings.mcp.servers, runtime.mcp.status())}` };
      const { authCommand } = await import("./mcp/login.ts");
      return authCommand(verb, name, {
        servers: runtime.settings.mcp.servers,
        store: runtime.credentials,
        fetch: runtime.fetch(),
        env: process.env,
        print,
        signal: s,
        restart: runtime.mcp.restart,
        state: () => runtime.mcp.status().find((x) => x.name === name)?.state,
      });
    },
  };
}

/**
 * `/skills`: what the skill folders hold now against what this run loaded. The project's folders
 * are read when its skills are loaded (trusted), else listed as waiting on trust with why.
 */
function skillsListing(runtime: Runtime, here: Places, columns: number): string {
  const user = skillFolders({ ...here, project: false });
  const all = skillFolders({ ...here, project: true });
  const loaded = runtime.skills();
  const leftOut = runtime.leftOut();
  const projectDirs = all.slice(user.length).map((f) => f.dir);
  const inProject = (path: string) => projectDirs.some((d) => path.startsWith(d + sep));
  // loaded from the project now (or nothing there waits on trust): its folders are read as this run reads them
  const projectLoaded = leftOut === undefined || loaded.some((s) => inProject(s.path));
  const now = loadSkills(projectLoaded ? all : user);
  const untrusted = projectLoaded ? [] : loadSkills(all).skills.filter((s) => inProject(s.path));
  const whose = (i: number) => (i >= user.length ? "project" : i === 0 ? "yours, Claude Code's" : "yours");
  // as the model has them: the system prompt's list, where a kept note of /reload's describes a skill it names only or leaves out
  const { list, notes } = runtime.skillsShown();
  const noted = new Set(notes.flatMap(notedSkills));
  const cut = (names: readonly string[]) => new Set(names.filter((n) => !noted.has(n)));
  return formatSkills({
    folders: all.map((f, i) => ({ dir: f.dir, whose: whose(i) })),
    found: now.skills,
    untrusted,
    problems: now.problems,
    loaded,
    nameOnly: cut(list.named),
    unlisted: cut(list.left),
    awaiting: new Set(now.skills.filter((s) => runtime.unloadedSkill(s.name)?.includes(HELD_SKILL)).map((s) => s.name)),
    declined: new Set(now.skills.filter((s) => runtime.unloadedSkill(s.name)?.includes(DECLINED_SKILL)).map((s) => s.name)),
    ...(leftOut && !projectLoaded ? { leftOut } : {}),
    shown: (path) => shownPath(path, here.cwd, here.home),
    columns,
  });
}
