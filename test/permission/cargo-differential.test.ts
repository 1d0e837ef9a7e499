// A deny entry naming a cargo command against real cargo: aliases from a project's
// .cargo/config.toml, from `--config` and from CARGO_ALIAS_* — including one that replaces
// cargo's own `b` and one that shadows the `cargo-fmt` program — make other words run the denied
// command (`locate-project` stands in for `publish`: it runs anywhere, offline, and changes nothing).
// Whenever cargo ran it, the checker refused the command; cargo's built-in commands, which no
// alias replaces, still run.
import { expect } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const DENIED = "locate-project";
const COMMANDS = [
  `cargo ${DENIED}`,
  "cargo lp",
  "cargo b",
  "cargo fmt",
  "cargo -q lp",
  "cargo --color never lp",
  "cargo --locked --offline lp",
  `cargo --config 'alias.zz="${DENIED}"' zz`,
  `CARGO_ALIAS_YY=${DENIED} cargo yy`,
  `env CARGO_ALIAS_YY=${DENIED} cargo yy`,
  "cargo metadata --no-deps --format-version 1",
  "cargo --color never metadata --no-deps --format-version 1",
  "cargo version",
  "cargo --list",
];

testNeeding(["cargo", "sh"])(
  "whenever real cargo runs the command a deny entry names under an alias, the checker refused it",
  () => {
    const tmp = tempDir("hey-cargo-diff-");
    const dir = realpathSync(tmp.path);
    try {
      writeFileSync(join(dir, "Cargo.toml"), '[package]\nname = "t"\nversion = "0.1.0"\nedition = "2021"\n');
      mkdirSync(join(dir, "src"));
      writeFileSync(join(dir, "src", "lib.rs"), "");
      mkdirSync(join(dir, ".cargo"));
      // `metadata` is cargo's own: cargo warns and ignores the alias
      const aliases = ["lp", "b", "fmt", "metadata"].map((a) => `${a} = "${DENIED}"`).join("\n");
      writeFileSync(join(dir, ".cargo", "config.toml"), `[alias]\n${aliases}\n`);
      const env = { ...process.env, CARGO_TERM_COLOR: "never", CARGO_NET_OFFLINE: "true" };
      const rules = ["sh", "dash", "bash"].map((s) => compileRules({ allow: [], deny: [`bash: cargo ${DENIED} *`] }, s).rules);
      const missed: string[] = [];
      const blocked: string[] = [];
      let ran = 0;
      for (const command of COMMANDS) {
        const run = Bun.spawnSync(["sh", "-c", command], { cwd: dir, env, stdout: "pipe", stderr: "pipe", timeout: 60_000 });
        const decisions = rules.map((r) => decide("bash", { command }, r).allowed);
        if (run.stdout.toString().startsWith('{"root":')) {
          ran++;
          if (decisions.some(Boolean)) missed.push(command);
        } else if (run.exitCode === 0 && !decisions.every(Boolean)) blocked.push(command);
      }
      expect(missed).toEqual([]);
      expect(blocked).toEqual([]);
      expect(ran).toBeGreaterThanOrEqual(8); // the command, the aliases of the config file and of the environment
    } finally {
      tmp.remove();
    }
  },
  120_000,
);
