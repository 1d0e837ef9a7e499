// A git worktree's config file approved in what its main checkout's record approves of it
// (config/load.ts recordedFor weighs the two records): the user approved those values in the same
// project. Pure.
import type { Guarded } from "./guard.ts";
import { sealedUrl, sealedUrls } from "./sealed-url.ts";

/**
 * What a git worktree's file is approved in: `own`, its own record, with each key the file sets
 * now (`now`) exactly as `main`, its main checkout's file's record, approves it — a server, a
 * provider's base_url, a list — taken from `main`: the user approved that value in the same project.
 * So a worktree that merged what the main checkout approved since is not asked about it, and one
 * still behind runs what its own record approved.
 */
export function withMainApprovals(own: Guarded, approvedInMain: Guarded, now: Guarded): Guarded {
  const main = { ...approvedInMain, ...(approvedInMain.endpoints && { endpoints: sealedUrls(approvedInMain.endpoints) }) };
  if (main.proxy) main.proxy = sealedUrl(main.proxy);
  const out: Guarded = { ...own, mcp: { ...own.mcp } };
  for (const [name, print] of Object.entries(now.mcp)) {
    if (main.mcp[name] !== print) continue;
    out.mcp[name] = print;
    if (main.servers?.[name]) out.servers = { ...own.servers, ...out.servers, [name]: main.servers[name] };
  }
  if (own.selections && main.selections)
    for (const [name, sel] of Object.entries(now.selections ?? {}))
      if (JSON.stringify(main.selections[name]) === JSON.stringify(sel)) out.selections = { ...own.selections, ...out.selections, [name]: sel };
  // a record without endpoints (an older hey's) approves every one already
  if (own.endpoints && main.endpoints) {
    const endpoints = { ...own.endpoints };
    for (const [name, url] of Object.entries(now.endpoints ?? {})) if (main.endpoints[name] === url) endpoints[name] = url;
    out.endpoints = endpoints;
  }
  for (const key of ["allow", "deny", "keep_env"] as const)
    if (now[key] !== undefined && JSON.stringify(now[key]) === JSON.stringify(main[key])) out[key] = main[key];
  for (const key of ["bash_filter", "shell", "rg", "proxy", "ca_file"] as const) if (now[key] !== undefined && now[key] === main[key]) out[key] = main[key];
  if (own.vars && main.vars) out.vars = [...new Set([...own.vars, ...(now.vars ?? []).filter((v) => main.vars!.includes(v))])].sort();
  return out;
}
