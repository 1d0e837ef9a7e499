// bun scripts/build-lib.ts — the library for embedding (src/lib.ts, README "Embed") as dist/lib:
// ES modules for Bun — index.js, each vendor SDK in a chunk of its own that is loaded only when its
// protocol is used — whose npm dependencies stay imports (the package's "dependencies"), and their
// type declarations in dist/lib/types, written by tsc from the sources (tsconfig.lib.json).
// `npm pack` runs it first (the "prepack" script), so a packed hey always carries a fresh build.
import { rmSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const OUT = join(ROOT, "dist", "lib");

rmSync(OUT, { recursive: true, force: true });
const built = await Bun.build({
  entrypoints: [join(ROOT, "src", "lib.ts")],
  outdir: OUT,
  target: "bun",
  format: "esm",
  splitting: true,
  packages: "external",
  naming: { entry: "index.js", chunk: "[name]-[hash].js" },
});
if (!built.success) {
  for (const log of built.logs) console.error(log);
  process.exit(1);
}
const tsc = Bun.spawnSync([join(ROOT, "node_modules", ".bin", "tsc"), "-p", join(ROOT, "tsconfig.lib.json")], { stdout: "inherit", stderr: "inherit" });
if (tsc.exitCode !== 0) process.exit(tsc.exitCode ?? 1);
console.log(`built dist/lib: ${built.outputs.length} modules and their type declarations`);
