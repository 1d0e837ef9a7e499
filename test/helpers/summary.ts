// Preloaded by bun test (bunfig.toml): after the last test file, lists the tests skipped because a
// tool was missing (test/helpers/tools.ts), so a green run on a bare machine says what it left out.
import { afterAll } from "bun:test";
import { skippedForTools } from "./tools.ts";

afterAll(() => {
  if (!skippedForTools.length) return;
  const lines = skippedForTools.map((s) => `  - ${s}`).join("\n");
  console.error(`\n${skippedForTools.length} test(s) skipped because a tool is missing (CI=true makes them fail; .ci/run installs the tools):\n${lines}\n`);
});
