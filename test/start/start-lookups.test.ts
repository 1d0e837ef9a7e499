// hey's start looks each thing up once (f122b): an external bash_filter's program is searched for on
// PATH by the config's check (config/unrunnable-tools.ts), and the run's filter watch takes that
// finding instead of searching every PATH directory again.
import { afterEach, expect, spyOn, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { filterWatch } from "../../src/builtin-tools.ts";
import { loadConfig } from "../../src/config/load.ts";
import { eachTempDir } from "../helpers/fixtures.ts";
import { configInputs } from "../helpers/places.ts";

const dir = eachTempDir("hey-start-lookups-");
const spies: { mockRestore(): void }[] = [];
afterEach(() => {
  for (const s of spies.splice(0)) s.mockRestore();
});

/** The config of a user whose `[tools] bash_filter` names `filter`, loaded as hey's start loads it. */
function configWith(filter: string) {
  const home = join(dir.path, "home");
  mkdirSync(join(home, ".config", "hey"), { recursive: true });
  writeFileSync(join(home, ".config", "hey", "config.toml"), `[tools]\nbash_filter = ${JSON.stringify(filter)}\n`);
  return loadConfig({ ...configInputs({ HOME: home, PATH: process.env.PATH }, dir.path), trustProject: false, flags: {}, approvals: undefined });
}

/** How many times PATH is searched for `program` while `body` runs. */
function searchesFor(program: string, body: () => void): number {
  const which = spyOn(Bun, "which");
  spies.push(which);
  body();
  return which.mock.calls.filter(([name]) => name === program).length;
}

test.each([
  ["a filter whose program is missing", "no-such-filter-f122b --compact", false],
  ["a filter whose program is there", "sh -c cat", true],
])("%s: PATH is searched for it once at start, and the run's filter watch goes by that finding", (_, filter, usable) => {
  const program = filter.split(" ")[0]!;
  let watch: ReturnType<typeof filterWatch> | undefined;
  const said: string[] = [];
  const searches = searchesFor(program, () => {
    const config = configWith(filter);
    watch = filterWatch(config.settings, config.warnings, (l) => said.push(l));
  });
  expect(searches).toBe(1);
  expect(watch!.usable()).toBe(usable);
  expect(said).toEqual([]); // a missing one was said among the config's warnings, not again
});
