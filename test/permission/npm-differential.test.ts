// Deny entries naming an npm command or option against npm's own code, loaded from the global
// install: the command a word runs is what npm's deref (lib/utils/cmd-list.js) makes of it — its
// commands, aliases, unique abbreviations, camelCase — and the options a command line sets are what
// nopt reads with npm's definitions (@npmcli/config), as `npm` itself does. Whenever npm would run
// the denied command, or set the denied option, the checker refused the command; whenever it would
// run another command, or not set the option, the checker let it run, but for the spellings listed
// as refused on purpose.
import { expect } from "bun:test";
import { createRequire } from "node:module";
import { join } from "node:path";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { testNeeding } from "../helpers/tools.ts";

function npmRequire() {
  const root = Bun.spawnSync(["npm", "root", "-g"]).stdout.toString().trim();
  return createRequire(join(root, "npm", "package.json"));
}

const checker = (entry: string) => {
  const rules = ["sh", "dash", "bash"].map((shell) => compileRules({ allow: [], deny: [`bash: ${entry}`] }, shell).rules);
  return {
    refused: (command: string) => rules.every((r) => !decide("bash", { command }, r).allowed),
    allowed: (command: string) => rules.every((r) => decide("bash", { command }, r).allowed),
  };
};

testNeeding(["npm"])("every word npm runs as a denied command is refused, and every word it runs as another command is not", () => {
  const { commands, aliases, deref } = npmRequire()("./lib/utils/cmd-list.js") as {
    commands: string[];
    aliases: Record<string, string>;
    deref: (word: string) => string | undefined;
  };
  const names = [...commands, ...Object.keys(aliases)];
  const words = new Set(names.flatMap((n) => [...n].map((_, i) => n.slice(0, i + 1))));
  for (const n of names) if (n.includes("-")) words.add(n.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())); // installTest
  const missed: string[] = [];
  const overRefused: string[] = [];
  let denied = 0;
  for (const target of ["publish", "unpublish", "uninstall", "install", "run", "test", "dist-tag", "exec", "ci", "cache", "access"]) {
    const { refused, allowed } = checker(`npm ${target} *`);
    for (const word of words) {
      const runs = deref(word);
      const command = `npm ${word} x`;
      if (runs === target) {
        denied++;
        if (!refused(command)) missed.push(`${command} (runs ${target})`);
      } else if (runs !== undefined && !allowed(command)) overRefused.push(`${command} (runs ${runs}, deny ${target})`);
    }
  }
  expect(missed).toEqual([]);
  expect(overRefused).toEqual([]);
  expect(denied).toBeGreaterThanOrEqual(60); // `npm pub`, `npm rm`, `npm isntall`, `npm runScript`, …
});

interface OptionCase {
  entry: string;
  /** npm's command, then the spellings put after it */
  command: string;
  spellings: string[];
  /** whether npm's reading of the command line sets what the entry denies */
  sets: (conf: Record<string, unknown>) => boolean;
  refusedAnyway: string[];
  /** spellings that set it by another option, which the entry does not name */
  unseen: string[];
}

const OPTIONS: OptionCase[] = [
  {
    entry: "npm install -g *",
    command: "install",
    spellings: [
      "-g",
      "--global",
      "--glob",
      "--gl",
      "-global",
      "---global",
      "--no-no-global",
      "-gl",
      "-lg",
      "--global=true",
      "--global true",
      "--no-global",
      "--global=false",
      "-l",
      "--location=global",
    ],
    sets: (conf) => conf.global === true || conf.location === "global",
    refusedAnyway: ["--glob", "--global=false"], // `--glob` also begins `--globalconfig`: npm takes it for an unknown option
    unseen: [],
  },
  {
    entry: "npm publish --tag latest *",
    command: "publish",
    spellings: [
      "--tag latest",
      "--tag=latest",
      "-tag latest",
      "---tag=latest",
      "--tag beta",
      "--tag=beta",
      "--tag-version-prefix latest",
      "--ta latest",
      "--tag latest --tag beta",
    ],
    sets: (conf) => conf.tag === "latest",
    refusedAnyway: ["--ta latest", "--tag latest --tag beta"], // `--ta` also begins `--tag-version-prefix`
    unseen: [],
  },
  {
    entry: "npm audit fix --force *",
    command: "audit fix",
    spellings: ["-f", "--force", "--forc", "-force", "--no-no-force", "-fg", "-gf", "--force=false", "--no-force", "--fo", "-d"],
    sets: (conf) => conf.force === true,
    refusedAnyway: ["--force=false", "--fo"], // `--fo` also begins `--foreground-scripts`
    unseen: [],
  },
];

testNeeding(["npm"])("whenever npm's own option reading sets what a deny entry's option names, the checker refused the command", () => {
  const require = npmRequire();
  const nopt = require("nopt") as (types: object, shorthands: object, argv: string[], slice: number) => Record<string, unknown>;
  const { definitions, shorthands } = require("@npmcli/config/lib/definitions") as {
    definitions: Record<string, { type: unknown }>;
    shorthands: object;
  };
  const types = Object.fromEntries(Object.entries(definitions).map(([k, d]) => [k, d.type]));
  for (const c of OPTIONS) {
    const { refused, allowed } = checker(c.entry);
    const missed: string[] = [];
    const overRefused: string[] = [];
    let sets = 0;
    for (const spelling of c.spellings) {
      const argv = [...c.command.split(" "), ...spelling.split(" "), "x"];
      const command = `npm ${argv.join(" ")}`;
      if (c.sets(nopt(types, shorthands, argv, 0))) {
        sets++;
        if (!refused(command)) missed.push(spelling);
      } else if (!allowed(command)) overRefused.push(spelling);
    }
    expect({ entry: c.entry, missed }).toEqual({ entry: c.entry, missed: c.unseen });
    expect({ entry: c.entry, overRefused }).toEqual({ entry: c.entry, overRefused: c.refusedAnyway });
    expect({ entry: c.entry, sets: sets >= 3 }).toEqual({ entry: c.entry, sets: true });
  }
});
