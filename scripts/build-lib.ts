// bun scripts/build-lib.ts — the library for embedding (src/lib.ts, README "Embed") as dist/lib:
// ES modules for Bun — index.js, each vendor SDK in a chunk of its own that is loaded only when its
// protocol is used — whose npm dependencies stay imports (the package's "dependencies"), and their
// type declarations in dist/lib/types, written by tsc from the sources (tsconfig.lib.json), and
// not-bun.js: what any other runtime (package.json `exports`: "bun" → index.js, "default" →
// not-bun.js) gets on import — one error saying the library needs Bun, instead of "Bun is not
// defined" from deep inside the first call that spawns or reads a file.
// `npm pack` runs it first (the "prepack" script), so a packed hey always carries a fresh build.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const OUT = join(ROOT, "dist", "lib");

/** The module other runtimes import: it throws, naming the runtime it found and what to do instead. */
const NOT_BUN = `// hey's library runs on Bun only (README "Embed"); package.json sends other runtimes here.
const runtime = globalThis.Deno ? \`Deno \${globalThis.Deno.version.deno}\` : globalThis.process?.versions?.node ? \`Node.js \${globalThis.process.versions.node}\` : "this runtime";
throw new Error(
  \`the hey package runs on Bun (https://bun.sh), not on \${runtime}: its bash tool and MCP servers run as Bun.spawn processes, and other parts use Bun APIs too. \` +
    "Run your program with bun (bun app.ts), or run hey's binary from it: hey -p TASK --output json writes one JSON event per line.",
);
`;

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
// it declares every name index.js exports: a named import of a missing one fails at link time,
// before the module runs, with Node's own "does not provide an export named" instead of this error
const names = Object.keys(await import(join(OUT, "index.js")));
writeFileSync(join(OUT, "not-bun.js"), `${NOT_BUN}export let ${names.join(", ")};\n`);
const tsc = Bun.spawnSync([join(ROOT, "node_modules", ".bin", "tsc"), "-p", join(ROOT, "tsconfig.lib.json")], { stdout: "inherit", stderr: "inherit" });
if (tsc.exitCode !== 0) process.exit(tsc.exitCode ?? 1);
console.log(`built dist/lib: ${built.outputs.length} modules and their type declarations`);
