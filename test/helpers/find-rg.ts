// The ripgrep tests of the grep tool run: HEY_TEST_RG, else `rg` on PATH, else the devDependency
// @vscode/ripgrep (its rg ships inside the npm package @vscode/ripgrep-<platform>, no download at
// install time).
import type { Tool } from "../../src/kernel/tool.ts";
import { createGrepTool } from "../../src/tools/grep.ts";

export const NO_RG =
  "ripgrep not found: add the devDependency @vscode/ripgrep (>= 1.18: rg ships inside its platform package, no download), " +
  "install rg (apt-get install ripgrep, brew install ripgrep) or set HEY_TEST_RG=/path/to/rg";

export async function findRg(): Promise<string | undefined> {
  if (process.env.HEY_TEST_RG) return process.env.HEY_TEST_RG;
  const onPath = Bun.which("rg");
  if (onPath) return onPath;
  const pkg = "@vscode/ripgrep";
  const mod = (await import(pkg).catch(() => undefined)) as { rgPath?: string } | undefined;
  return mod?.rgPath;
}

/** The grep tool with the built-in search, and with ripgrep when one is found: `describe.each` runs a test on both. */
export async function bothGreps(): Promise<[string, Tool][]> {
  const rg = await findRg();
  return [["built-in", createGrepTool({ rg: null })], ...(rg ? [["ripgrep", createGrepTool({ rg })] as [string, Tool]] : [])];
}
