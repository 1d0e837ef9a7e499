// What `/help` lists: the REPL's commands and keys (README "Slash commands" and "Keys" say the same).
import { EFFORTS } from "../kernel/ir.ts";
export const HELP = `/help                      this list
/model [provider/model]    show or switch the model (the conversation is kept)
/effort LEVEL              reasoning effort: ${EFFORTS.join(" ")}
/thinking                  show or hide thinking (what is sent does not change)
/usage                     tokens of the session and of this run, context size (system prompt and tools included), what was pruned
/compact [instructions]    summarize older work now
/reload                    re-read config, skills and AGENTS.md; start new or changed MCP servers (checked first; the conversation is kept)
/plan [on|off]             plan mode: the agent reads and searches, changes nothing, and proposes (also Shift+Tab)
/trust, /untrust           trust this project's .hey/ and .mcp.json, after showing what they would run (or stop): /reload then loads (or leaves out) its files
/mcp                       MCP servers: state (and why), tools with what each costs per request, prompts
/mcp login NAME            sign in to the remote MCP server NAME in the browser (/mcp logout NAME forgets it)
/mcp:SERVER:PROMPT [args]  send the server's prompt (args: name=value, or in the prompt's order)
/skill:NAME [args]         send the skill's instructions, then args
/skills                    each skill: its folder, its description's start, whether the model sees it; those left out and why
/sessions [all]            list this directory's sessions, its project's when it has none (all: every directory's)
/sessions prune 30d        delete this directory's sessions older than 30 days (prune keep 20: all but the newest 20; prune all 30d, prune all keep 20: every directory's)
/resume [N|ID]             continue another session of this directory (or of its project), picked from a list
/clear, /new               end this session (it stays saved) and start a new one here
/last                      the previous tool call's whole output (from its full-output file when it has one)
/diff                      git diff and untracked files of the project, to look at: nothing goes to the model
/undo                      put back the files the agent's last turn changed with edit/write_file (unless changed since); again: the turn before
/jobs [stop N]             the jobs the agent left running (command, pid, age, output file); stop N stops one
!COMMAND                   run COMMAND in your shell, with the terminal; it and its output go with your next message
/quit                      leave (also Ctrl-D, or Ctrl-C twice at an empty prompt)

Keys:
Enter                      send; a trailing \\ you type or Ctrl-J starts a new line; a paste is one message (a big one shows as [Pasted text #1 +N lines])
typing during a turn       shows under the status; Enter queues the line, sent as your next message when the turn ends (not after an error: it waits)
Esc, Ctrl-C                cancel a running turn; what you queued or typed meanwhile waits at the next prompt, unsent (3 more Ctrl-C once the turn has not stopped for 2.5 s quit hey, that text kept in the history)
↑/↓                        earlier lines (this project's first)
Ctrl-R                     search them (again: older, Ctrl-S: newer, Esc: back)
Ctrl-G, Ctrl-X Ctrl-E      write the line in $VISUAL or $EDITOR; it comes back unsent
Ctrl-L                     clear the screen
Ctrl-Z                     suspend (fg resumes)
Ctrl-Y                     put back what Ctrl-U/K/W cut, or the line Ctrl-C cleared
Shift+Tab                  plan mode on or off (the prompt shows plan while it is on)
Tab                        complete /commands, /skill: names, /mcp: prompts, @paths and models`;
