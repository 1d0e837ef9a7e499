// Issue 30: the checker on commands written by others (tldr pages, mvdan/sh's interpreter tests;
// test/fixtures/real-world/README.md), against what dash and bash really ran for each (recorded
// under logging stubs by scripts/real-world/record.sh, every program a command tried to run counted,
// found or not). Under an allow list (A), three deny lists (B, D, and E, whose entries name
// subcommands and options: `git push --force *`, `npm publish *`…) and each command's own first
// program (C), for /bin/sh (both readings), dash and bash: no command is allowed that runs a program
// the list does not allow, and the share of harmless commands refused — those that run only allowed
// programs — is printed per source and may only go down. For E, which programs a command ran does
// not say which subcommand they ran: the commands that ran a program E names are counted apart, and
// those refused printed, for a reader to judge.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { ControlFiles } from "../../src/permission/control-files.ts";
import { compileRules, decide, type CompiledRules } from "../../src/permission/rules.ts";
import { parseSyntax } from "../../src/permission/shell-syntax.ts";

const FIXTURE = join(import.meta.dir, "..", "fixtures", "real-world", "corpus.txt");
const READINGS = ["sh", "dash", "bash"] as const;
type Reading = (typeof READINGS)[number];

interface Entry {
  command: string;
  source: string;
  ran: { dash: string[]; bash: string[] };
}

function load(): Entry[] {
  const out: Entry[] = [];
  let source = "";
  for (const line of readFileSync(FIXTURE, "utf8").split("\n")) {
    if (line.startsWith("# ")) source = line.slice(2);
    if (!line || line.startsWith("#")) continue;
    const [dash, bash, command] = line.split("\t") as [string, string, string];
    const names = (s: string) => (s === "-" ? [] : s.split(" "));
    out.push({ command: JSON.parse(command), source, ran: { dash: names(dash), bash: bash === "=" ? names(dash) : names(bash) } });
  }
  return out;
}

/** A list, and which program names it lets run (every pattern here is `PROGRAM *`). */
interface List {
  lists: { allow: string[]; deny: string[] };
  permits: (name: string) => boolean;
}

const A = ["git", "ls", "cat", "grep", "echo"];
const DENY_B = ["rm", "curl", "sudo"];
const DENY_D = ["rm", "curl"];
const DENY_E = ["git push --force *", "git reset --hard *", "npm publish *", "cargo publish *", "gh pr merge *", "rm -rf *"];
const NAMED_E = ["git", "npm", "cargo", "gh", "rm"];
const fixed: Record<string, List> = {
  A: { lists: { allow: A.map((p) => `bash: ${p} *`), deny: [] }, permits: (n) => A.includes(n) },
  B: { lists: { allow: [], deny: DENY_B.map((p) => `bash: ${p} *`) }, permits: (n) => !DENY_B.includes(n.toLowerCase()) },
  D: { lists: { allow: [], deny: DENY_D.map((p) => `bash: ${p} *`) }, permits: (n) => !DENY_D.includes(n.toLowerCase()) },
  E: { lists: { allow: [], deny: DENY_E.map((p) => `bash: ${p}`) }, permits: (n) => !NAMED_E.includes(n.toLowerCase()) },
};

/** List C: the command's own first program (the first word of its first simple command), or none. */
function firstProgram(command: string): string | undefined {
  const parsed = parseSyntax(command, "dash");
  const parsedBash = parsed.ok ? parsed : parseSyntax(command, "bash");
  if (!parsedBash.ok) return undefined;
  const first = parsedBash.segments.find((s) => !s.nested && s.words.length)?.words[0];
  if (!first || first.unknown || first.glob || !/^[A-Za-z0-9_.+-]+$/.test(first.text)) return undefined;
  return first.text;
}

/**
 * The file system as the recording had it (scripts/real-world/driver.ts makes a fresh directory for
 * each command): its FILES hold text, the other files a command names were not there or empty, and
 * none of hey's own files was.
 */
const BOX = "/tmp/box/cwd";
const HELD = new Set(["notes.txt", "file.txt", "src", "src/main.c", "docs", "docs/README.md"].map((f) => `${BOX}/${f}`));
const RECORDED: ControlFiles = {
  paths: [],
  cwd: BOX,
  home: "/tmp/box/home",
  fileState: (abs) => (HELD.has(posix.normalize(abs).replace(/\/$/, "")) ? "data" : "none"),
};

const compiled = new Map<string, CompiledRules>();
function rules(name: string, list: List, reading: Reading): CompiledRules {
  const key = `${name}/${reading}`;
  if (!compiled.has(key)) compiled.set(key, compileRules(list.lists, reading, RECORDED).rules);
  return compiled.get(key)!;
}

/** What `reading` may run: dash's record, bash's, or (for /bin/sh) either. */
const ranUnder = (e: Entry, reading: Reading) => (reading === "sh" ? [...e.ran.dash, ...e.ran.bash] : e.ran[reading]);

/** A refusal's reason without the command text it quotes, for counting classes. */
function refusalClass(reason: string): string {
  const r = reason.replace(/^blocked by permission rules: /, "");
  const verify = /^cannot verify `.*?`: (.*)$/s.exec(r);
  if (verify) return `cannot verify: ${verify[1]!.replace(/`[^`]*`/g, "`…`")}`;
  if (/known only at run time/.test(r)) return "a word known only at run time";
  if (/does not allow the redirections? to a file /.test(r)) return "a file redirection not in a pattern";
  const none = /^`([^ `]*)[^`]*` matches no allow entry/.exec(r);
  if (none) return `no allow entry for \`${none[1]}\``;
  return r.replace(/`[^`]*`/g, "`…`");
}

/**
 * The share of harmless commands refused, per list and reading: the checker may refuse less, never
 * more; lower these as it improves. "Harmless" counts every program a command tried to run, found
 * or not (the corpus was re-recorded so for issue 30; the earlier record missed programs absent
 * from the sandbox, `$ENV_PROG` left empty, and inputs a tldr page assumes). On that record the
 * checker as issue 30 found it refused A 22.2 / 31.0 / 33.8 %, B 13.3 / 10.6 / 13.2 %, C 11.3 / 12.9
 * / 13.0 %, D 13.0 / 10.5 / 12.9 % (sh / dash / bash) and let through 8 commands dash ran as
 * programs (`a+=c` is no assignment to dash); on the earlier record, A 33.1 / 40.4 / 36.9 %. Issue
 * 30's target: at most 15 % under A read as sh. List E, when its option words matched by position
 * and cargo's and gh's aliases were not looked up, refused the same harmless shares and 27 of the
 * 198 commands that ran a program it names; the 5 more since are `cargo binstall` (3) and `gh
 * copilot` (2), which may be aliases.
 */
const CEILINGS: Record<string, number> = {
  // A, B, C and D by 4 commands (x39 finding 2): tldr's `git config --global alias.unstage "reset
  // HEAD --"`, `git config --global --unset alias.unstage`, `git config --edit` and `--global --edit`
  // write git's config with a key that can run commands (an alias may hold `-c core.pager=…`), which
  // no list lets the agent do (git-config-writes.ts)
  ...{ "A/sh": 0.1482, "A/dash": 0.289, "A/bash": 0.1953 },
  // B/bash from 0.074 and D/dash from 0.101: `find src -type d -empty -delete -print` and `git
  // clean -f` delete without running rm, and `rm *` now refuses them (equivalents.ts)
  // B, D and E by 1 to 3 commands: `gitstats git_repo/.git out` names a path in a `.git`
  // directory, git's own files, which a program not known to only read may not be handed while a
  // list is set; and with git's files always control files, a redirection whose target only the
  // run knows (`> $'a\nb'`, `>&"${name[1]}"`) is refused under these lists with no control files of
  // hey's too, as it is in every run (a run always has some).
  // B, D and E by 2 more: a script the command writes and runs is read as the shell reads it, so
  // mvdan/sh's `echo 'if' >a; chmod +x a; ./a` (a syntax error) and `printf '\0\n' >a; …` (a NUL) cannot be verified
  // B, D and E read as sh or dash by 1: `[[ foo =~ .* ]]`, which sh and dash run as programs, one handed `.*`
  // expanded (`.git` among what it matches): a glob a program not known to only read is handed is
  // matched against git's own files and hey's while a list is set
  ...{ "B/sh": 0.0793, "B/dash": 0.1053, "B/bash": 0.076 },
  ...{ "C/sh": 0.0947, "C/dash": 0.128, "C/bash": 0.1006 },
  ...{ "D/sh": 0.0789, "D/dash": 0.1037, "D/bash": 0.0757 },
  ...{ "E/sh": 0.0822, "E/dash": 0.1081, "E/bash": 0.0789 },
};

// ~66,000 checks (4,409 commands, 5 lists, 3 readings) on one thread: npm test's 30 s was too tight
// on a loaded 2-CPU machine (measured 29.7, 35.0 and 42.7 s), so, like the differential tests, it has its own timeout
test("real-world corpus: nothing allowed runs an unallowed program; the harmless share refused is printed", () => {
  const corpus = load();
  expect(corpus.length).toBeGreaterThanOrEqual(4000);
  const bypasses: string[] = [];
  const rows: string[] = [];
  const classes = new Map<string, number>();
  const named: string[] = [];
  for (const name of ["A", "B", "C", "D", "E"]) {
    for (const reading of READINGS) {
      let harmless = 0;
      let refused = 0;
      const perSource = new Map<string, [harmless: number, refused: number]>();
      for (const e of corpus) {
        let list = fixed[name];
        if (name === "C") {
          const first = firstProgram(e.command);
          if (!first) continue;
          list = { lists: { allow: [`bash: ${first} *`], deny: [] }, permits: (n) => n === first };
        }
        const r = name === "C" ? compileRules(list!.lists, reading, RECORDED).rules : rules(name, list!, reading);
        const d = decide("bash", { command: e.command }, r);
        const ran = ranUnder(e, reading);
        const ok = ran.every(list!.permits);
        if (d.allowed && !ok && name !== "E")
          bypasses.push(`${name}/${reading}: ${JSON.stringify(e.command)} ran ${ran.filter((n) => !list!.permits(n)).join(", ")}`);
        if (!ok && name === "E" && reading === "sh") named.push(`${d.allowed ? "allowed" : "refused"} ${JSON.stringify(e.command)}`);
        if (!ok) continue;
        harmless++;
        const counts = perSource.get(e.source.replace(/:.*/, "")) ?? [0, 0];
        perSource.set(e.source.replace(/:.*/, ""), counts);
        counts[0]++;
        if (d.allowed) continue;
        refused++;
        counts[1]++;
        if (name === "A" && reading === "sh") classes.set(refusalClass(d.reason), (classes.get(refusalClass(d.reason)) ?? 0) + 1);
      }
      const rate = harmless ? refused / harmless : 0;
      const share = (r: number, h: number) => `${String(r).padStart(4)} of ${String(h).padStart(4)} (${h ? ((100 * r) / h).toFixed(1) : "0.0"} %)`;
      const sources = [...perSource].map(([src, [h, r]]) => `${src} ${share(r, h)}`).join(", ");
      rows.push(
        `${name} ${reading.padEnd(4)} ${String(refused).padStart(5)} of ${String(harmless).padStart(5)} harmless refused (${(100 * rate).toFixed(1)} %): ${sources}`,
      );
      const ceiling = CEILINGS[`${name}/${reading}`];
      if (ceiling !== undefined)
        expect({ list: `${name}/${reading}`, rate: Number(rate.toFixed(4)) <= ceiling }).toEqual({ list: `${name}/${reading}`, rate: true });
    }
  }
  console.log(`real-world corpus, ${corpus.length} commands:\n${rows.join("\n")}`);
  const refusedNamed = named.filter((n) => n.startsWith("refused"));
  console.log(`list E (sh): ${refusedNamed.length} of the ${named.length} commands that ran ${NAMED_E.join(", ")} refused:\n${refusedNamed.join("\n")}`);
  console.log(
    `list A (sh), refusals of harmless commands by class:\n${[...classes]
      .sort((a, b) => b[1] - a[1])
      .map(([c, n]) => `${String(n).padStart(5)}  ${c}`)
      .join("\n")}`,
  );
  expect(bypasses).toEqual([]);
}, 120_000);
