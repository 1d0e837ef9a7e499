// bun scripts/permission-tables.ts — writes src/permission/program-tables.ts, the option and
// command tables a deny entry is matched with (src/permission/deny-options.ts, subcommands.ts), from
// the real programs installed here: git (`git CMD -h` and `git CMD --git-completion-helper-all` for
// every command of git.ts's GIT_COMMANDS, and `git CMD SUB -h` for the SUBs its usage names), npm
// (its lib/utils/cmd-list.js and @npmcli/config's definitions, read from the global install) and
// GNU rm (`rm --help`). Rerun it after upgrading them; the header of the file says which versions
// it was made from.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GIT_COMMANDS } from "../src/permission/git.ts";

const OUT = join(import.meta.dir, "..", "src", "permission", "program-tables.ts");
/** git commands whose `-h` starts something else (a pager of its own, a GUI, a server) or reads stdin */
const SKIP = new Set(["credential-cache", "credential-store", "fast-import", "upload-pack", "receive-pack", "upload-archive", "var"]);

interface Opt {
  short: string[];
  long?: string;
  value: boolean;
}

/** The options of a `-h` or `--help` text: lines such as `    -f, --force   …`, `  -r, -R, --recursive`, `    -o, --push-option <x>`. */
function options(help: string): Opt[] {
  const out: Opt[] = [];
  for (const line of help.split("\n")) {
    const m = /^ {2,6}((?:-[A-Za-z0-9?](?:, )?)*)(--\[?[\w-]+\]?[\w-]*)?(.*)$/.exec(line.replace(/(\S)\s{2,}\S.*$/, "$1"));
    if (!m || (!m[1] && !m[2])) continue;
    const short = [...m[1]!.matchAll(/-([A-Za-z0-9?])/g)].map((s) => s[1]!);
    const long = m[2]?.replace(/^--\[no-\]/, "--").slice(2);
    const value = /^\s*[[=<(]|^\s+[A-Z]/.test(m[3] ?? "") || /\[?=/.test(m[3] ?? "");
    out.push({ short, ...(long ? { long } : {}), value });
  }
  return out;
}

/** One table string: `f=force o:push-option d=` then ` | ` and the long names that begin another long name. */
function table(opts: Opt[], longs: Iterable<string>): string {
  const all = new Set([...longs, ...opts.flatMap((o) => (o.long ? [o.long] : []))]);
  const pairs = opts.flatMap((o) => o.short.map((s) => `${s}${o.value ? ":" : "="}${o.long ?? ""}`));
  const prefixes = [...all].filter((l) => [...all].some((m) => m !== l && m.startsWith(l))).sort();
  return [...new Set(pairs)].join(" ") + (prefixes.length ? ` | ${prefixes.join(" ")}` : "");
}

function gitTables(): { version: string; rows: [string, string][] } {
  const home = mkdtempSync(join(tmpdir(), "hey-tables-"));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_PAGER: "cat", PAGER: "cat", LANG: "C", LC_ALL: "C" };
  const git = (args: string[]) => {
    const r = Bun.spawnSync(["git", ...args], { cwd: home, env, stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: 10_000 });
    return { ok: r.exitCode === 0, text: r.stdout.toString() + r.stderr.toString() };
  };
  try {
    git(["init", "-q", "."]);
    const rows: [string, string][] = [];
    const one = (path: string[]) => {
      const help = git([...path, "-h"]).text;
      const complete = git([...path, "--git-completion-helper-all"]);
      const longs = complete.ok
        ? complete.text
            .split(/\s+/)
            .filter((w) => /^--[\w-]/.test(w))
            .map((w) => w.replace(/=$/, "").slice(2))
        : [];
      const row = table(options(help), longs);
      if (row) rows.push([path.join(" "), row]);
      if (path.length > 1) return;
      const subs = new Set<string>();
      const usage = new RegExp(`(?:usage|or): git ${path[0]} (?:\\[-[^\\]]*\\] )*\\[?([a-z][a-z-]+)`, "g");
      for (const m of help.matchAll(usage)) subs.add(m[1]!);
      for (const sub of [...subs].sort()) one([...path, sub]);
    };
    for (const c of [...GIT_COMMANDS].sort()) if (!SKIP.has(c)) one([c]);
    return {
      version: git(["--version"])
        .text.trim()
        .replace(/^git version /, ""),
      rows,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function npmTables() {
  const root = Bun.spawnSync(["npm", "root", "-g"]).stdout.toString().trim();
  const require = createRequire(join(root, "npm", "package.json"));
  const { commands, aliases } = require("./lib/utils/cmd-list.js") as { commands: string[]; aliases: Record<string, string> };
  const config = require("@npmcli/config/lib/definitions") as {
    definitions: Record<string, { type: unknown }>;
    shorthands: Record<string, string[]>;
  };
  const names = Object.keys(config.definitions);
  const isFlag = (t: unknown) => t === Boolean || (Array.isArray(t) && t.length === 2 && t.includes(Boolean) && t.includes(null));
  // `-d` is `--loglevel info`: a shorthand that brings its value takes none
  const opts: Opt[] = Object.entries(config.shorthands).map(([short, expansion]) => {
    const long = expansion[0]!.slice(2);
    return { short: [short], long, value: expansion.length === 1 && !long.startsWith("no-") && !isFlag(config.definitions[long]?.type) };
  });
  const version = (require("./package.json") as { version: string }).version;
  return { version, commands, aliases, options: table(opts, names) };
}

const git = gitTables();
const npm = npmTables();
const rm = table(options(Bun.spawnSync(["rm", "--help"], { env: { LANG: "C", LC_ALL: "C" } }).stdout.toString()), []);
const rmVersion = Bun.spawnSync(["rm", "--version"]).stdout.toString().split("\n")[0]!;
const quote = (s: string) => JSON.stringify(s);
const source = `// Generated by scripts/permission-tables.ts from git ${git.version}, npm ${npm.version} and ${rmVersion}: do not
// edit, rerun it. What the real programs say about their options and commands, for deny entries
// (deny-options.ts, subcommands.ts). An option table is one string: \`f=force\` for a short option
// that is the long one, \`o:push-option\` when it takes a value, an empty long name for a short
// option that has none (\`d=\`); after \` | \`, the long names that begin another one's name
// (\`force\`, which \`force-with-lease\` begins with): those are never read as an abbreviation.

/** git's options by command (\`git CMD -h\`), and by command and subcommand where its usage names some (\`worktree remove\`). */
export const GIT_OPTIONS: Record<string, string> = {
${git.rows.map(([k, v]) => `  ${quote(k)}: ${quote(v)},`).join("\n")}
};

/** GNU rm's options (\`rm --help\`). */
export const RM_OPTIONS = ${quote(rm)};

/** npm's shorthands (a letter or a word: \`-g\`, \`-ws\`) and its long options that begin another's name; npm reads any option after the command too. */
export const NPM_OPTIONS = ${quote(npm.options)};

/** npm's commands (lib/utils/cmd-list.js). */
export const NPM_COMMANDS: string[] = ${quote(npm.commands.join(" "))}.split(" ");

/** npm's aliases of its commands (lib/utils/cmd-list.js), typos included. */
export const NPM_ALIASES: Record<string, string> = Object.fromEntries(
  ${quote(
    Object.entries(npm.aliases)
      .map(([a, c]) => `${a}=${c}`)
      .join(" "),
  )}.split(" ").map((pair) => pair.split("=")),
);
`;
writeFileSync(OUT, source);
Bun.spawnSync(["npx", "biome", "format", "--write", OUT], { cwd: join(import.meta.dir, "..") });
console.log(`${OUT}: git ${git.version} (${git.rows.length} commands), npm ${npm.version}, ${rmVersion}`);
