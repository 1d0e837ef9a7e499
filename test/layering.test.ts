// The architecture as a test (STYLE.md "Shape"): every file under src/ is pure unless it is listed
// below as an edge; a pure file imports an edge file only for types; the kernel imports nothing
// outside kernel/; there is no import cycle, not even a type-only one; each SDK is imported by
// exactly one file, lazily.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = join(import.meta.dir, "..");
const SRC = join(ROOT, "src");

/**
 * The files allowed to do I/O or load an SDK: giving another file I/O is a visible one-line change
 * here. Everything else is pure.
 */
const EDGES = new Set([
  "lib.ts",
  "embed-permission.ts",
  "embed-mcp.ts",
  "embed-dirs.ts",
  "main.ts",
  "here.ts",
  "mcp-command.ts",
  "run.ts",
  "one-command.ts",
  "interactive.ts",
  "command-context.ts",
  "user-input.ts",
  "runtime.ts",
  "wire.ts",
  "builtin-tools.ts",
  "permission-check.ts",
  "endpoint.ts",
  "config/approval-store.ts",
  "config/control-context.ts",
  "config/load.ts",
  "config/read-layer.ts",
  "config/record-key.ts",
  "config/private-env.ts",
  "context/task-note.ts",
  "doctor/command.ts",
  "doctor/network.ts",
  "doctor/probe.ts",
  "model-list.ts",
  "fs/atomic.ts",
  "fs/append-whole.ts",
  "tools/checkpoints.ts",
  "tools/undo-folders.ts",
  "tools/one-shot-turn.ts",
  "ui/diff-view.ts",
  "fs/bounded-reads.ts",
  "fs/read-thread.ts",
  "fs/disk-walks.ts",
  "fs/dir-problem.ts",
  "fs/dir-sync.ts",
  "fs/file-lock.ts",
  "fs/proc-stat.ts",
  "fs/git-config-files.ts",
  "fs/git-places.ts",
  "fs/git-staged.ts",
  "fs/git-refs.ts",
  "fs/ripgrep-choice.ts",
  "config/unrunnable-tools.ts",
  "permission/repository-programs.ts",
  "fs/listed-windows.ts",
  "fs/worktree.ts",
  "fs/own-files.ts",
  "fs/package-scripts.ts",
  "fs/workspace-packages.ts",
  "fs/read-head.ts",
  "fs/file-stamps.ts",
  "fs/ignore-files.ts",
  "fs/file-chunks.ts",
  "fs/fd-bytes.ts",
  "fs/real-target.ts",
  "fs/root-probe.ts",
  "fs/work-dir.ts",
  "fs/dir-names.ts",
  "mcp/child.ts",
  "mcp/client.ts",
  "mcp/credentials.ts",
  "mcp/login.ts",
  "mcp/stdio.ts",
  "mcp/store.ts",
  "net/ca.ts",
  "net/debug-log.ts",
  "net/fetch.ts",
  "net/proxy-probe.ts",
  "net/socks-bridge.ts",
  "peers/found.ts",
  "peers/said.ts",
  "prompt/agents-md.ts",
  "prompt/git-ignored.ts",
  "prompt/input.ts",
  "prompt/nested-agents.ts",
  "prompt/source.ts",
  "prompt/user-instructions.ts",
  "providers/anthropic.ts",
  "providers/create.ts",
  "providers/google.ts",
  "providers/openai.ts",
  "providers/responses.ts",
  "providers/server-window.ts",
  "sessions/damaged-head.ts",
  "sessions/ended-jobs.ts",
  "sessions/entries-before.ts",
  "sessions/open-session.ts",
  "sessions/header-repair.ts",
  "sessions/leftovers.ts",
  "sessions/lines.ts",
  "sessions/note-taken.ts",
  "sessions/listing.ts",
  "sessions/lock.ts",
  "sessions/read-head.ts",
  "sessions/run-start.ts",
  "sessions/reader.ts",
  "sessions/usage-in.ts",
  "sessions/vanished.ts",
  "sessions/writer.ts",
  "sessions/background-sync.ts",
  "skills/load.ts",
  "tools/bash.ts",
  "tools/capture.ts",
  "tools/command-result.ts",
  "tools/garbage-watch.ts",
  "tools/group-guard.ts",
  "tools/job-log.ts",
  "tools/job-object.ts",
  "tools/kernel-dirs.ts",
  "tools/long-command.ts",
  "tools/missing-file.ts",
  "tools/project-files.ts",
  "tools/edit.ts",
  "tools/edit-file.ts",
  "tools/file-lines.ts",
  "tools/grep.ts",
  "tools/grep-search.ts",
  "tools/grep-ripgrep.ts",
  "tools/grep-same-file.ts",
  "tools/grep-left-out.ts",
  "tools/outputs.ts",
  "tools/process-tree.ts",
  "tools/run-process.ts",
  "tools/save-full-output.ts",
  "tools/vim-watch.ts",
  "tools/read-file.ts",
  "tools/ripgrep.ts",
  "tools/walk.ts",
  "tools/write-file.ts",
  "trust/approve.ts",
  "trust/ask.ts",
  "trust/command.ts",
  "trust/instruction-copies.ts",
  "trust/instructions.ts",
  "trust/instruction-yes.ts",
  "trust/session.ts",
  "trust/start.ts",
  "trust/store.ts",
  "ui/sessions-list.ts",
  "ui/signals.ts",
  "ui/commands.ts",
  "ui/display.ts",
  "ui/repl.ts",
  "ui/history-store.ts",
  "ui/resume.ts",
  "ui/shell-command.ts",
  "ui/external-editor.ts",
  "ui/term.ts",
  "ui/reader-check.ts",
  "upgrade/command.ts",
  "upgrade/net.ts",
]);

const SDKS = ["openai", "@anthropic-ai/sdk", "@google/genai", "@modelcontextprotocol/sdk"];
const IO_MODULES = /^(node:)?(fs|fs\/promises|child_process|net|http|https|tls|dns|os|readline|tty)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => join(e.parentPath, e.name));
}

interface Import {
  spec: string;
  typeOnly: boolean;
  dynamic: boolean;
}

/** Module specifiers a file imports or re-exports, statically or dynamically, with whether the import is type-only. */
function imports(code: string): Import[] {
  const out: Import[] = [];
  for (const m of code.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+["']([^"']+)["']/gms))
    out.push({ spec: m[3]!, typeOnly: Boolean(m[2]), dynamic: false });
  for (const m of code.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) out.push({ spec: m[1]!, typeOnly: false, dynamic: false });
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false, dynamic: true });
  return out;
}

const isSdk = (spec: string) => SDKS.some((s) => spec === s || spec.startsWith(s + "/"));
const files = sourceFiles(SRC);
const rel = (file: string) => relative(SRC, file);
const code = new Map(files.map((f) => [rel(f), readFileSync(f, "utf8")]));
/** src-relative targets of each file's relative .ts imports */
const graph = new Map(
  files.map((f) => [
    rel(f),
    imports(code.get(rel(f))!)
      .filter((i) => i.spec.startsWith(".") && i.spec.endsWith(".ts"))
      .map((i) => ({ ...i, target: relative(SRC, resolve(dirname(f), i.spec)) })),
  ]),
);

describe("purity", () => {
  test("every edge file exists", () => {
    expect([...EDGES].filter((e) => !code.has(e))).toEqual([]);
  });

  const pure = [...code.keys()].filter((f) => !EDGES.has(f)).sort();
  test.each(pure)("%s is pure: no SDK, no I/O, edge files for types only", (name) => {
    const text = code.get(name)!;
    const bad: string[] = [];
    for (const { spec, typeOnly } of imports(text)) {
      if (isSdk(spec) && !typeOnly) bad.push(`imports ${spec}`);
      if (IO_MODULES.test(spec)) bad.push(`imports ${spec}`);
    }
    for (const { target, typeOnly } of graph.get(name)!) if (EDGES.has(target) && !typeOnly) bad.push(`imports the edge file ${target} for more than types`);
    if (/\bBun\./.test(text)) bad.push("uses Bun.*");
    if (/\bprocess\.env\b/.test(text)) bad.push("reads process.env");
    if (/\bprocess\.(stdout|stderr|stdin|exit|on|off)\b/.test(text)) bad.push("touches the process");
    if (/\bfetch\(/.test(text)) bad.push("calls fetch");
    expect(bad).toEqual([]);
  });
});

describe("the kernel", () => {
  const kernel = [...code.keys()].filter((f) => f.startsWith("kernel/")).sort();
  test.each(kernel)("%s imports nothing outside kernel/ and no package", (name) => {
    const outside = imports(code.get(name)!).flatMap((i) => {
      if (!i.spec.startsWith(".")) return i.spec === "node:path" ? [] : [i.spec];
      const target = relative(SRC, resolve(dirname(join(SRC, name)), i.spec));
      return target.startsWith("kernel/") ? [] : [target];
    });
    expect(outside).toEqual([]);
  });
});

describe("the adapters", () => {
  // the configuration is resolved above them and handed down as plain values (endpoint.ts)
  const adapters = [...code.keys()].filter((f) => f.startsWith("providers/")).sort();
  test.each(adapters)("%s imports nothing from config/", (name) => {
    expect(
      graph
        .get(name)!
        .filter((i) => i.target.startsWith("config/"))
        .map((i) => i.target),
    ).toEqual([]);
  });
});

describe("imports", () => {
  test("there is no import cycle, type-only imports included", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (node: string) => {
      state.set(node, "open");
      stack.push(node);
      for (const { target } of graph.get(node) ?? []) {
        if (state.get(target) === "open") cycles.push([...stack.slice(stack.indexOf(target)), target].join(" → "));
        else if (!state.has(target) && graph.has(target)) visit(target);
      }
      stack.pop();
      state.set(node, "done");
    };
    for (const node of graph.keys()) if (!state.has(node)) visit(node);
    expect(cycles).toEqual([]);
  });

  test("every relative import names an existing file", () => {
    const missing = [...graph].flatMap(([from, list]) => list.filter((i) => !code.has(i.target)).map((i) => `${from} → ${i.target}`));
    expect(missing).toEqual([]);
  });
});

describe("the embedding API", () => {
  test("lib.ts reaches nothing of the CLI: no flags, flow, composition root, terminal, trust or config files read", () => {
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const { target } of graph.get(file) ?? []) walk(target);
    };
    walk("lib.ts");
    const cli = [...seen].filter((f) =>
      /^(ui|trust|doctor|upgrade)\/|^config\/(load|resolve|approval-store|private-env)\.ts$|^(run|runtime|wire|cli|main|mcp-command)\.ts$/.test(f),
    );
    expect(cli).toEqual([]);
    // what it is for: the agent, and what the CLI's agent has (permission rules, sessions, MCP)
    expect(["agent.ts", "permission/rules.ts", "sessions/writer.ts", "mcp/manager.ts"].filter((f) => !seen.has(f))).toEqual([]);
  });
});

describe("values that stop at the top (issue 25)", () => {
  /** the files that declare `type` or import it */
  const naming = (type: string) => {
    const named = new RegExp(`^\\s*(export\\s+)?(interface|type)\\s+${type}\\b|^\\s*import\\b[^;]*\\b${type}\\b[^;]*\\bfrom\\b`, "m");
    return [...code]
      .filter(([, text]) => named.test(text))
      .map(([name]) => name)
      .sort();
  };

  test("the parsed command line (CliArgs) stays in the entry, its parser and the commands it picks", () => {
    expect(naming("CliArgs")).toEqual(["cli.ts", "doctor/command.ts", "main.ts", "mcp-command.ts", "run.ts"]);
  });

  test("a run's own flags (RunFlags) go no further than the file that builds the run", () => {
    expect(naming("RunFlags")).toEqual(["cli.ts", "run.ts", "wire.ts"]);
  });

  test("the resolved configuration (Settings) reaches no agent, kernel, provider, tool or permission file: they take their own values", () => {
    const below = naming("Settings").filter((f) => f === "agent.ts" || /^(kernel|providers|tools|permission|sessions|skills|prompt)\//.test(f));
    expect(below).toEqual([]);
  });
});

describe("vendor SDKs", () => {
  test.each(SDKS)("%s is imported by at most one file, and only lazily", (sdk) => {
    const named = (i: Import) => i.spec === sdk || i.spec.startsWith(sdk + "/");
    const users = [...code].filter(([, text]) => imports(text).some(named)).map(([name]) => name);
    expect(users.length).toBeLessThanOrEqual(1);
    for (const name of users) {
      const eager = imports(code.get(name)!).filter((i) => named(i) && !i.typeOnly && !i.dynamic);
      expect({ file: name, eager: eager.map((e) => e.spec) }).toEqual({ file: name, eager: [] });
    }
  });
});
