// [permission] fails closed (SPEC §24): `${VAR}` is never expanded inside it, an entry that is no
// rule is a ConfigError naming it, and so are unknown keys in it and near-misses of its name.
import TOML from "@iarna/toml";
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import { ConfigError } from "../../src/config/settings.ts";
import { compileRules, decide } from "../../src/permission/rules.ts";

const U = "/home/u/.config/hey/config.toml";
const P = "/work/app/.hey/config.toml";
const OK = '[provider.local]\nbase_url = "http://127.0.0.1:11434/v1"\nmodels = ["m"]\n';

/** resolveConfig over the user file and, when given, the project file; "no error" or the ConfigError's message. */
function errorOf(user: string, project?: string): string {
  const layers = [{ source: U, data: TOML.parse(user + "\n" + OK) }, ...(project === undefined ? [] : [{ source: P, data: TOML.parse(project) }])];
  try {
    resolveConfig(layers, {}, {});
    return "no error";
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
}

test.each([
  ['[permissions]\nallow = ["bash: ls"]', `${U}: unknown table [permissions]; permission rules belong in [permission]`],
  ['[permision]\ndeny = ["bash: rm *"]', `${U}: unknown table [permision]; permission rules belong in [permission]`],
  ['[Permission]\ndeny = ["bash: rm *"]', `${U}: unknown table [Permission]; permission rules belong in [permission]`],
  ['[permission]\ndenny = ["bash: rm *"]', `${U}: unknown key [permission] denny; did you mean deny?`],
  ['[permission]\nallowed = ["bash: ls"]', `${U}: unknown key [permission] allowed; did you mean allow?`],
  [
    '[permission]\nask = ["bash"]',
    `${U}: unknown key [permission] ask (known: allow, deny); hey asks about no call: leave those out of allow (refused) or put them in deny`,
  ],
  ['deny = ["bash: rm *"]', `${U}: deny must be inside [permission]`],
  ['[permission]\nallow = ["Bash"]', `${U}: [permission] allow: "Bash" names no tool (tool names are lowercase); write "bash"`],
  ['[permission]\ndeny = ["Write"]', `${U}: [permission] deny: "Write" names no tool (tool names are lowercase); write "write_file"`],
  [
    '[permission]\nallow = ["Bash(git:*)", "write:*.env", "read_file"]',
    `${U}: [permission] allow: "Bash(git:*)" is another agent's syntax; write "bash: git *"\n` +
      `${U}: [permission] allow: "write:*.env" gives \`write\` a pattern; hey's name for the tool is write_file: write "write_file: *.env"`,
  ],
  // a program's name is no tool: as one it would match nothing, and the command would run
  [
    '[permission]\ndeny = ["rm"]',
    `${U}: [permission] deny: "rm" names a program, not a tool; write "bash: rm *" to refuse its commands (an MCP tool of that name: "rm*")`,
  ],
  // a slip for a built-in's name would deny nothing: another agent's word, a letter off, a plural
  ...[
    ...["write", "writefile", "write-file", "write_files", "wirte_file", "writ_file", "shell", "bsah", "edits", "read_fle"],
    // other agents' names for the same tools (Codex, Cursor, Zed, Cline, Anthropic's text editor)
    ...["apply_patch", "edit_file", "str_replace_editor", "write_to_file", "create_file", "execute_command", "run_terminal_cmd", "local_shell"],
  ].map((slip) => {
    const meant =
      {
        write: "write_file",
        writefile: "write_file",
        shell: "bash",
        bsah: "bash",
        edits: "edit",
        read_fle: "read_file",
        apply_patch: "edit",
        edit_file: "edit",
        str_replace_editor: "edit",
        execute_command: "bash",
        run_terminal_cmd: "bash",
        local_shell: "bash",
      }[slip] ?? "write_file";
    return [
      `[permission]\ndeny = ["${slip}"]`,
      `${U}: [permission] deny: "${slip}" is no built-in tool's name, so it would refuse an MCP tool so named only; write "${meant}" for hey's (for such an MCP tool: "${slip}*")`,
    ];
  }),
  // an MCP tool's own name, a glob, or a built-in's is no slip; in an allow list a slip fails closed
  ['[permission]\ndeny = ["write*", "edit_file*", "list_directory", "echo", "edit", "github_*"]', "no error"],
  ['[permission]\nallow = ["read_file", "writ_file"]', "no error"],
  // in an allow list it fails closed (git's commands are refused), and an MCP tool may bear the name
  ['[permission]\nallow = ["read_file", "kubectl"]', "no error"],
  ['[permission]\ndeny = ["rm*", "grep", "bash: rm *"]', "no error"],
  ['[permission]\nallow = ["bash: ls &&"]', `${U}: [permission] allow: "bash: ls &&" cannot be parsed: nothing after \`&&\``],
  // every mistake at once: an unknown key beside it does not hide an entry that is no rule
  [
    '[permission]\nask = ["bash"]\nallow = ["Read"]',
    `${U}: unknown key [permission] ask (known: allow, deny); hey asks about no call: leave those out of allow (refused) or put them in deny\n${U}: [permission] allow: "Read" names no tool (tool names are lowercase); write "read_file"`,
  ],
])("%s → %s", (toml, message) => {
  expect(errorOf(toml)).toBe(message);
});

test("the message names the file the bad list came from", () => {
  expect(errorOf('[permission]\nallow = ["bash: git *"]', '[permission]\ndeny = ["Bash(rm:*)"]')).toBe(
    `${P}: [permission] deny: "Bash(rm:*)" is another agent's syntax; write "bash: rm *"`,
  );
  expect(errorOf('[permission]\nallow = ["bash: git *"]\ndeny = ["bash: rm *"]')).toBe("no error");
});

test("other near-miss tables stay warnings", () => {
  expect(errorOf("[agnet]\nmax_turns = 3")).toBe("no error");
});

test("${VAR} is never expanded inside [permission], so an unset variable does not widen a rule", () => {
  const { settings, warnings } = resolveConfig(
    [{ source: U, data: TOML.parse(OK + '[permission]\nallow = ["bash: ${UNSET} *", "bash: ${HOME}/bin/tool *"]') }],
    { HOME: "/home/u" },
    {},
  );
  expect(settings.permission.allow).toEqual(["bash: ${UNSET} *", "bash: ${HOME}/bin/tool *"]);
  expect(warnings).toEqual([]);
  const rules = compileRules(settings.permission).rules;
  expect(decide("bash", { command: "rm -rf x" }, rules).allowed).toBe(false);
  expect(decide("bash", { command: "/home/u/bin/tool x" }, rules).allowed).toBe(false);
  expect(decide("bash", { command: "${HOME}/bin/tool x" }, rules).allowed).toBe(true); // spelled out, as the rule says
});
