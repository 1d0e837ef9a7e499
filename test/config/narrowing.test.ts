// The agent never widens its own rules (issue 24), but the user narrows them at once: for each file
// the agent could write — the user config, a --config file, a trusted project's config — a change
// that only takes away (an allow list set where there was none, entries removed from one, deny
// entries added) is used by the next run without a question, and only a real widening waits. A
// --config file's lists replace the user's, so it is weighed with what they allow.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import type { Settings } from "../../src/config/settings.ts";
import { places, type Places } from "../../src/fs/places.ts";
import { decideWidenings, readApprovalState, recordApprovals, widenings } from "../../src/trust/approve.ts";
import { tempDir } from "../helpers/e2e.ts";

const PROVIDER = '[provider.m]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m1"]\n';
type Kind = "user" | "--config" | "project";

let tmp: ReturnType<typeof tempDir>;
let files: Places;
const warnings: string[] = [];
beforeEach(() => {
  tmp = tempDir("hey-narrowing-");
  const project = join(tmp.path, "project");
  mkdirSync(join(project, ".hey"), { recursive: true });
  files = places({}, join(tmp.path, "home"), project, "linux");
  mkdirSync(join(files.userConfig, ".."), { recursive: true });
  warnings.length = 0;
});
afterEach(() => tmp.remove());

const ciFile = () => join(files.cwd, "ci.toml");
const pathOf = (kind: Kind) => (kind === "user" ? files.userConfig : kind === "project" ? files.projectConfig : ciFile());

/** Writes the files: `user` is the user config's extra text; `kind`'s file gets `text`. */
function write(kind: Kind, text: string, user = ""): void {
  writeFileSync(files.userConfig, PROVIDER + (kind === "user" ? text : user));
  if (kind !== "user") writeFileSync(pathOf(kind), text);
}

/** One one-shot start-up as run.ts does it: what is pending, what runs, and the record updated. */
async function start(kind: Kind) {
  const state = readApprovalState(files.approvalsFile, (w) => warnings.push(w));
  const loaded = loadConfig({
    env: { HOME: files.home },
    here: files,
    trustProject: kind === "project",
    flags: {},
    approvals: state.record,
    ...(kind === "--config" ? { configFile: "ci.toml" } : {}),
  });
  const pending = widenings(loaded).flatMap((w) => w.lines);
  const config = await decideWidenings(loaded, undefined, (w) => warnings.push(w));
  await recordApprovals(config, state, files.trustFile, (w) => warnings.push(w));
  return { pending, settings: config.settings };
}

/** The lists in force from the file under test, in any order: a project's allow list is one more a call must match. */
function inForce(s: Settings, kind: Kind) {
  const allow = kind === "project" ? (s.permission.narrow[0]?.allow ?? []) : s.permission.allow;
  return { allow: allow.toSorted(), deny: s.permission.deny.toSorted() };
}

const ALLOW = (...entries: string[]) => `[permission]\nallow = ${JSON.stringify(entries)}\n`;
const DENY = (...entries: string[]) => `[permission]\ndeny = ${JSON.stringify(entries)}\n`;
const TURNS = "[agent]\nmax_turns = 5\n";

describe.each<Kind>(["user", "--config", "project"])("%s", (kind) => {
  type Row = [change: string, before: string, after: string, pending: string[], used: "before" | "after"];
  test.each<Row>([
    ["an allow list where there was none: narrower", TURNS, TURNS + ALLOW("read_file"), [], "after"],
    ["allow entries removed: narrower", ALLOW("read_file", "bash: ls"), ALLOW("read_file"), [], "after"],
    ["a deny list where there was none: narrower", TURNS, TURNS + DENY("bash: rm *"), [], "after"],
    ["a deny entry added: narrower", DENY("bash: rm *"), DENY("bash: rm *", "bash: curl *"), [], "after"],
    ["an allow entry added: wider", ALLOW("read_file"), ALLOW("read_file", "bash"), ['+ [permission] allow "bash"'], "before"],
    ["the allow list removed: wider", ALLOW("read_file"), TURNS, ["- [permission] allow (the whole list: every tool call would run)"], "before"],
    ["the allow list emptied: wider", ALLOW("read_file"), ALLOW(), ["- [permission] allow (the whole list: every tool call would run)"], "before"],
    ["a deny entry removed: wider", DENY("bash: rm *", "bash: curl *"), DENY("bash: curl *"), ['- [permission] deny "bash: rm *"'], "before"],
    ["the deny list removed: wider", DENY("bash: rm *"), TURNS, ['- [permission] deny "bash: rm *"'], "before"],
  ])("%s", async (_, before, after, pending, used) => {
    write(kind, before);
    await start(kind); // hey's first run: the files as they are
    write(kind, after);
    const run = await start(kind);
    expect(run.pending).toEqual(pending);
    write(kind, used === "before" ? before : after);
    expect(inForce(run.settings, kind)).toEqual(inForce((await start(kind)).settings, kind));
    expect(warnings.filter((w) => w.startsWith("not used:"))).toHaveLength(pending.length ? 1 : 0);
  });

  test("a new MCP server waits", async () => {
    write(kind, TURNS);
    await start(kind);
    write(kind, `${TURNS}[mcp.fs]\ncommand = "npx"\nargs = ["server-filesystem"]\n`);
    const run = await start(kind);
    expect(run.pending).toEqual(["+ [mcp.fs] npx server-filesystem"]);
    expect(run.settings.mcp.servers).toEqual([]);
  });
});

describe("a --config file's lists replace the user's: weighed with what those allow", () => {
  type Row = [change: string, user: string, after: string, pending: string[], allow: string[], deny: string[]];
  test.each<Row>([
    ["an allow list narrower than the user's", ALLOW("read_file", "bash: ls"), ALLOW("read_file"), [], ["read_file"], []],
    ["the same list as the user's", ALLOW("read_file"), ALLOW("read_file"), [], ["read_file"], []],
    [
      "an allow list with an entry the user's lacks",
      ALLOW("read_file", "bash: ls"),
      ALLOW("read_file", "bash"),
      ['+ [permission] allow "bash"'],
      ["read_file", "bash: ls"],
      [],
    ],
    ["an empty allow list: everything", ALLOW("read_file"), ALLOW(), ["- [permission] allow (the whole list: every tool call would run)"], ["read_file"], []],
    ["a deny list that keeps the user's entries", DENY("bash: rm *"), DENY("bash: rm *", "bash: curl *"), [], [], ["bash: rm *", "bash: curl *"]],
    [
      "a deny list without the user's entry",
      DENY("bash: rm *"),
      DENY("bash: curl *"),
      ['- [permission] deny "bash: rm *" (this file\'s deny list replaces the one before it)'],
      [],
      ["bash: curl *", "bash: rm *"],
    ],
  ])("%s", async (_, user, after, pending, allow, deny) => {
    write("--config", TURNS, user);
    await start("--config");
    write("--config", after, user);
    const run = await start("--config");
    expect(run.pending).toEqual(pending);
    expect(inForce(run.settings, "--config")).toEqual({ allow: allow.toSorted(), deny: deny.toSorted() });
  });

  test("a list dropped again: the user's list counts, weighed with what was approved", async () => {
    write("--config", ALLOW("read_file"), ALLOW("read_file", "bash: ls"));
    await start("--config");
    write("--config", TURNS, ALLOW("read_file", "bash: ls"));
    const run = await start("--config");
    expect(run.pending).toEqual(['- [permission] allow (the list of the files before it would count, which adds "bash: ls")']);
    expect(run.settings.permission.allow).toEqual(["read_file"]);
  });
});
