// The approvals record's keys of a config file (config/approvals.ts): under what path hey finds
// what the user approved of it, whether it is there, gone, or reached through a link.
import { readlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { inMainCheckout } from "../fs/worktree.ts";
import { realPathAt } from "../fs/root-probe.ts";
import type { Approvals } from "./approvals.ts";
import type { Guarded } from "./guard.ts";
import { withMainApprovals } from "./main-approvals.ts";

/** Links followed at most when a file is gone: a loop of links ends here, as the system's own ELOOP does. */
const MAX_LINKS = 40;

/**
 * The approvals record's key of a config file: its real path, so a linked config (dotfiles) keeps
 * its record. A git worktree's file has its own: what the user approves there never replaces what
 * they approved in the main checkout, so going back and forth between the two asks nothing again.
 * A gone file's is the key it had while it was there: a link left dangling (the dotfiles moved, or
 * another branch checked out there) is followed to the path it names.
 */
export function recordKey(path: string, links = MAX_LINKS): string {
  try {
    return realPathAt(path); // shared while hey starts: the approvals and the trust notice ask it of each file (fs/root-probe.ts)
  } catch {
    const target = links > 0 ? linkTarget(path) : undefined;
    return target ? recordKey(resolve(dirname(path), target), links - 1) : pathKey(path);
  }
}

/**
 * The key of the path hey reads a config file by: its folder's real path and its own name. For a
 * linked file this is the link's, recorded beside its real path's (load.ts), so a link that is
 * removed, and with it the one way to learn its target, still finds what was approved of the file.
 */
export function pathKey(path: string): string {
  return dirname(path) === path ? path : join(recordKey(dirname(path)), basename(path));
}

/** What the link at `path` names, or undefined when there is no link there. */
function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/**
 * `configs` (approvals by recordKey) with a git worktree's file's also under its main checkout's
 * path while `a` holds no record of that one: a first yes given in a worktree approves the main
 * checkout's file as far as it is the same, as a yes there would. A record the main checkout has is
 * never replaced.
 */
export function seedMainCheckout(a: Approvals, configs: Record<string, Guarded>): Record<string, Guarded> {
  const seeds = Object.entries(configs).flatMap(([key, g]) => {
    const main = inMainCheckout(key);
    return main !== key && a.configs[main] === undefined && configs[main] === undefined ? [[main, g] as const] : [];
  });
  return { ...Object.fromEntries(seeds), ...configs };
}

/**
 * What the user approved of the config file at `path`: its own record, else — in a git worktree
 * with none of its own yet — the main checkout's file's (fs/worktree.ts), so a worktree's
 * `.mcp.json` is approved as far as it is the same as the main checkout's, and a change is asked
 * about. A worktree's file that has both is approved in what either approves of it as it is
 * `now` (withMainApprovals): what the user approved in the main checkout since counts there too.
 */
export function recordedFor(approvals: Approvals, path: string, now?: () => Guarded): Guarded | undefined {
  const key = recordKey(path);
  const [own, main] = [approvals.configs[key], approvals.configs[inMainCheckout(key)]];
  return own && main && own !== main && now ? withMainApprovals(own, main, now()) : (own ?? main);
}
