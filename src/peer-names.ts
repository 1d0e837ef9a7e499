// Other agents' slash commands and flags (Claude Code, Codex, opencode, Gemini CLI) and what hey has
// instead: a user who types one from habit is told hey's, not the nearest spelling ("/cost: did you
// mean /last?") nor nothing. Pure.

/**
 * `/NAME` of another agent that takes no arguments → what hey says of it (after "hey has no /NAME; ").
 * Said only of the word alone: words after it are prose (`/status endpoint returns 500`), a prompt.
 */
const COMMANDS: Record<string, string> = {
  init: "ask the agent to write AGENTS.md (hey reads it, or CLAUDE.md, from the git root down to where it runs)",
  cost: "/usage shows the tokens and context of the session",
  stats: "/usage shows the tokens and context of the session",
  tokens: "/usage shows the tokens and context of the session",
  context: "/usage shows the tokens and context of the session",
  status: "/usage shows the tokens and context of the session; hey doctor (in a shell) checks the provider and model",
  share: "the session is saved as you go: hey --sessions lists the files, hey --resume ID continues one",
  memory: "edit AGENTS.md (the project's, or ~/.config/hey/AGENTS.md for every project), then /reload",
  permissions: "hey runs every tool unless [permission] allow/deny lists in config.toml say otherwise (hey doctor shows them)",
  approvals: "hey runs every tool unless [permission] allow/deny lists in config.toml say otherwise (hey doctor shows them)",
  doctor: "run hey doctor in a shell",
  config: "its settings are in ~/.config/hey/config.toml and the project's .hey/config.toml (/reload reads them again)",
  settings: "its settings are in ~/.config/hey/config.toml and the project's .hey/config.toml (/reload reads them again)",
  models: "/model lists the providers; /model PROVIDER/MODEL switches",
  login: "set the provider's API key variable (hey doctor says which), or /mcp login NAME for an MCP server",
  logout: "unset the provider's API key variable, or /mcp logout NAME for an MCP server",
  review: "ask for a review in words, or write a skill (/skill:NAME)",
  agents: "hey runs one agent; a skill (/skill:NAME) gives it a role",
  hooks: "hey has no hooks",
  rewind: "/undo puts back the files the agent's last turn changed (again: the turn before), /diff shows what changed",
  checkpoint: "/undo puts back the files the agent's last turn changed (again: the turn before), /diff shows what changed",
  upgrade: "run hey upgrade in a shell",
  copy: "select the answer on the screen (hey does not hard-wrap its lines, so a long one copies whole); /last shows the last tool call's whole output",
};

/** `/NAME ARGS` of another agent (its command takes arguments) → what hey says of it, with or without them. */
const WITH_ARGS: Record<string, string> = {
  "add-dir": "its tools reach any path: name the directory in your message (@PATH brings a file of it)",
  mention: "@FILE in your message brings the file (Tab completes it)",
  bug: "hey sends no reports; write it in your issue tracker",
  // another agent's command files by their folder's name (ui/slash.ts): none of that name was found
  "prompts:":
    "a Codex prompt in ~/.codex/prompts/NAME.md becomes a skill as ~/.config/hey/skills/NAME.md, with name and description front matter: /skill:NAME runs it",
  "project:":
    "a Claude Code command in .claude/commands/NAME.md becomes a skill as .hey/skills/NAME.md, with name and description front matter: /skill:NAME runs it",
  "user:":
    "a Claude Code command in ~/.claude/commands/NAME.md becomes a skill as ~/.config/hey/skills/NAME.md, with name and description front matter: /skill:NAME runs it",
  // Claude Code's /export [FILE] writes a transcript: sent to the model, it would write one from memory
  export: "the session is saved as you go: hey --sessions lists the files, hey --resume ID continues one",
};

/**
 * What hey says of another agent's `/NAME`, with `args` after it or not; undefined when it is not
 * one, or is one that takes no arguments and has words after it (those are the user's prose).
 */
export function peerCommand(name: string, args = false): string | undefined {
  const n = name.replace(/^\//, "").toLowerCase();
  const key = n.includes(":") ? n.slice(0, n.indexOf(":") + 1) : n; // `prompts:NAME` is said of `prompts:`
  const said = Object.hasOwn(WITH_ARGS, key) ? WITH_ARGS[key] : !args && Object.hasOwn(COMMANDS, key) ? COMMANDS[key] : undefined;
  return said ? `hey has no /${n}; ${said}` : undefined;
}

/** `--NAME` of another agent → hey's flag, or what to do. */
const FLAGS: Record<string, string> = {
  "output-format": "hey's is --output json (or --output text)",
  "dangerously-skip-permissions": "hey asks no permission: it runs every tool unless [permission] lists in config.toml refuse it",
  yolo: "hey asks no permission: it runs every tool unless [permission] lists in config.toml refuse it",
  "full-auto": "hey asks no permission: it runs every tool unless [permission] lists in config.toml refuse it",
  "allowed-tools": "write [permission] allow = [...] in config.toml",
  allowedTools: "write [permission] allow = [...] in config.toml",
  "disallowed-tools": "write [permission] deny = [...] in config.toml",
  disallowedTools: "write [permission] deny = [...] in config.toml",
  "system-prompt": "hey's instructions go in AGENTS.md (the project's, or ~/.config/hey/AGENTS.md)",
  "append-system-prompt": "hey's instructions go in AGENTS.md (the project's, or ~/.config/hey/AGENTS.md)",
  "mcp-config": "--config FILE takes a TOML file with [mcp.NAME] tables; a project's .mcp.json is read when it is trusted",
  prompt: 'hey\'s is -p "…" (or the message as arguments)',
  cd: "run it from the directory: cd DIR && hey …",
  "add-dir": "its tools reach any path: name the directory in your message (@PATH brings a file of it)",
  json: "hey's is --output json",
  image: 'name the file in the message: hey -p "@shot.png what is wrong here" attaches it',
  "permission-mode": "hey's plan mode is --plan (reads and searches, changes nothing); otherwise it runs every tool unless [permission] lists refuse it",
  sandbox: "hey has no sandbox; --plan lets the agent only read and search",
  "ask-for-approval": "hey asks no permission: it runs every tool unless [permission] lists in config.toml refuse it",
};

/** Other agents' one-letter flags (Codex's -C, -i, -s, -a) → their long names in FLAGS. */
const SHORT_FLAGS: Record<string, string> = { C: "cd", i: "image", s: "sandbox", a: "ask-for-approval" };

/** What hey says of another agent's `--NAME` or `-X` (after "unknown flag --NAME; "), or undefined. */
export function peerFlag(name: string): string | undefined {
  const long = name.length === 1 && Object.hasOwn(SHORT_FLAGS, name) ? SHORT_FLAGS[name]! : name;
  return Object.hasOwn(FLAGS, long) ? FLAGS[long] : undefined;
}
