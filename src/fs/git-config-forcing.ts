// What a git config file says about `git push` forcing (SPEC §8): a remote's push refspec that
// begins with `+` (`remote.origin.push = +refs/heads/*:refs/heads/*`) or a remote that mirrors
// (`remote.origin.mirror = true`) makes a `git push` without refspecs force, as `--force` does
// (git-config(1), git-push(1)). Also the files it includes (`[include] path`, `[includeIf …] path`,
// every condition taken as met). The file is read as git reads it (git-config-syntax.ts). Pure:
// git-config-files.ts reads the files.
import { type GitConfigEntry, parseGitConfig } from "./git-config-syntax.ts";

/** A file's forcing setting (`remote.origin.push = +main`, as found), and the paths it includes, as written. */
export interface GitConfigRead {
  forcing?: string;
  includes: string[];
}

const FALSE = /^(false|no|off|0|)$/i;

/** The setting as `remote.NAME.KEY = VALUE` when it makes a push without refspecs force, else undefined. */
export function forcingOf(entry: GitConfigEntry): string | undefined {
  if (entry.section !== "remote") return undefined;
  const v = entry.value ?? "true";
  const forces = (entry.key === "push" && v.startsWith("+")) || (entry.key === "mirror" && !FALSE.test(v));
  return forces ? `remote.${entry.sub ?? ""}.${entry.key} = ${v}` : undefined;
}

export function readGitConfig(text: string): GitConfigRead {
  const { entries } = parseGitConfig(text);
  const includes = entries.filter((e) => (e.section === "include" || e.section === "includeif") && e.key === "path" && e.value).map((e) => e.value!);
  const forcing = entries.map(forcingOf).find(Boolean);
  return { ...(forcing ? { forcing } : {}), includes };
}
