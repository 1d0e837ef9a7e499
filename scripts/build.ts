// bun run build        → dist/hey for this machine
// bun run build --all  → every release target (SPEC §20), later
//
// --splitting keeps each SDK in its own chunk, loaded by import() only when its protocol is used;
// --bytecode needs --format=esm for top-level await (oven-sh/bun#40968); the two
// --no-compile-autoload flags stop a repository's .env/bunfig.toml from reaching the binary
// (a .env with OPENAI_BASE_URL could otherwise redirect the user's key). See notes/sdk-facts.md §5.
import { rmSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const FLAGS = [
  "--compile",
  "--minify",
  "--bytecode",
  "--format=esm",
  "--splitting",
  "--sourcemap",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
];

export async function build(outfile = join(ROOT, "dist", "hey"), target?: string): Promise<void> {
  rmSync(join(ROOT, "dist"), { recursive: true, force: true });
  const cmd = [process.execPath, "build", ...FLAGS, ...(target ? [`--target=${target}`] : []), join(ROOT, "src", "main.ts"), "--outfile", outfile];
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  if (code !== 0) throw new Error(`bun build failed (exit ${code}):\n${out}${err}`);
}

if (import.meta.main) {
  const started = performance.now();
  await build();
  console.log(`built dist/hey in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
