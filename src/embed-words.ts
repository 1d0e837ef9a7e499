// What createMcp's servers tell an embedded agent's model and program, in the words of where they
// run (README "Embed"). The MCP manager words its notes for the CLI — "the user runs /reload",
// "([mcp.docs] timeout_ms)" — but a program has no /reload (createMcp again starts its servers
// anew) and names its options `timeoutMs`, `tools`, `excludeTools`: a model told to have the user
// type /reload passes that on to the program's user, who has no such command. Pure.
import type { Tool } from "./kernel/tool.ts";

/** CLI phrases and what an embedded agent says instead, most specific first. */
const PHRASES: [RegExp, string][] = [
  [/until (?:it is|its table is) fixed and the user runs \/reload/g, "until it is fixed and the program starts its MCP servers again"],
  [/fix that table, then the user runs \/reload/g, "fix that server's settings, then the program starts its MCP servers again"],
  [/fix the table, then ask the user to \/reload/g, "fix those servers' settings, then the program starts its MCP servers again"],
  [/\(\/reload replaced it\)/g, "(the program closed its MCP servers)"],
  [/\/reload restarts it/g, "it starts again when the program starts its MCP servers again"],
  [/\/reload connects again/g, "it connects again when the program starts its MCP servers again"],
  [/fix (?:it|its configuration), then \/reload/g, "fix its settings, then the program starts its MCP servers again"],
  [/\[mcp\.([^\]\s]+)\] max_timeout_ms/g, "hey's limit on a call that reports progress"],
  [/\[mcp\.([^\]\s]+)\] timeout_ms/g, "the timeoutMs of server $1"],
  [/\[mcp\.([^\]\s]+)\] exclude_tools/g, "the excludeTools of server $1"],
  [/\[mcp\.([^\]\s]+)\] tools/g, "the tools list of server $1"],
  [/\bmax_timeout_ms\b/g, "hey's limit on a call that reports progress"],
  [/\btimeout_ms\b/g, "timeoutMs"],
  [/\bexclude_tools\b/g, "excludeTools"],
  [/\/reload/g, "the program starting its MCP servers again"], // any other: no command the program's user could type
];

/** `text` as an embedded agent says it: no /reload, createMcp's option names for the `[mcp.NAME]` keys. */
export function embeddedWords(text: string): string {
  return PHRASES.reduce((said, [phrase, instead]) => said.replace(phrase, instead), text);
}

/** `tool` whose results say what they say in an embedded agent's words (embeddedWords). */
export function embeddedTool(tool: Tool): Tool {
  return {
    ...tool,
    run: async (args, ctx) => {
      const result = await tool.run(args, ctx);
      const output = embeddedWords(result.output);
      return output === result.output ? result : { ...result, output };
    },
  };
}
