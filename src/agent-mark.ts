// The mark hey puts in the environment of the commands its bash tool runs (SPEC §15): a hey started
// with it is one of the agent's commands, which must not answer hey's own trust and approval
// questions — through a pseudo-terminal it could (`python3 -c 'import pty; …'` typing `y` to `hey
// trust`). Such a hey asks none: `hey trust`, the start-up questions, `/reload` and `/trust`
// behave as in a run without a terminal, and `--approve` is ignored. Under a deny list a command
// can unset the variable, as it can do anything the user can; an allow list lets no `env -u` or
// `unset` run unless it says so. Pure.

/** The variable, set to the session's id. */
export const AGENT_MARK = "HEY_AGENT_SESSION";

/** Why a hey with environment `env` asks nothing (one line for stderr, after `hey: `), or undefined: it is not an agent's command. */
export function agentCommand(env: Record<string, string | undefined>): string | undefined {
  return env[AGENT_MARK] ? `running under an agent's command (${AGENT_MARK}): questions are answered in your own terminal` : undefined;
}

/**
 * Why `hey mcp login`/`logout` (or `/mcp login` in a hey the agent's command started) refuses, or
 * undefined: only the user signs in. A sign-in opens the user's browser and waits for it (x115 #2).
 */
export function agentSignIn(env: Record<string, string | undefined>, verb: "login" | "logout", name: string): string | undefined {
  if (!env[AGENT_MARK]) return undefined;
  const what = verb === "login" ? "signs in" : "signs out";
  return `running under an agent's command (${AGENT_MARK}): the user ${what} at their own terminal, with /mcp ${verb} ${name || "NAME"} in hey or hey mcp ${verb} ${name || "NAME"} in a shell`;
}
