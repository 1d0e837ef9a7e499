// What trusting a project would let its files do (issue 26): the trust question, `/trust` and
// `hey trust` list it, so a yes is given knowing each command the project would run and each place
// it would send requests — not only which files it has. Pure: the files come checked
// (config/schema.ts checkLayer's data).
import { sentVars } from "../config/guard.ts";
import { describeServer, urlOnScreen } from "../config/server-approval.ts";
import { redactProxyUrl } from "../net/proxy.ts";
import { where } from "../config/schema.ts";
import { isTable, type Table } from "../config/table.ts";

/** One line per thing the project's config files would run or redirect, in the files' order. */
export function effectLines(files: readonly { source: string; data: Table }[]): string[] {
  const out: string[] = [];
  for (const { data } of files) {
    const servers = isTable(data.mcp) && isTable(data.mcp.servers) ? data.mcp.servers : {};
    for (const [name, s] of Object.entries(servers)) {
      if (!isTable(s) || s.enabled === false) continue;
      if (typeof s.command === "string") out.push(`run MCP server ${name}: ${describeServer(s)}`);
      else if (typeof s.url === "string") out.push(`connect to MCP server ${name}: ${describeServer(s)}`);
    }
    const providers = isTable(data.provider) ? data.provider : {};
    for (const [name, p] of Object.entries(providers))
      if (isTable(p) && typeof p.base_url === "string") out.push(`send [provider.${name}] requests, with its key, to ${urlOnScreen(p.base_url)}`);
    const proxy = isTable(data.proxy) ? data.proxy.url : undefined;
    if (typeof proxy === "string" && proxy) out.push(`send model requests through the proxy ${redactProxyUrl(proxy)}`);
    const tools = isTable(data.tools) ? data.tools : {};
    if (typeof tools.bash_filter === "string" && tools.bash_filter !== "builtin" && tools.bash_filter !== "none")
      out.push(`pipe bash output through ${tools.bash_filter}`);
    if (typeof tools.shell === "string" && tools.shell) out.push(`run the agent's commands with ${tools.shell}`);
    if (typeof tools.rg === "string" && tools.rg) out.push(`run ${tools.rg} for grep`);
    if (Array.isArray(tools.keep_env) && tools.keep_env.length) out.push(`show ${tools.keep_env.join(", ")} to the agent's commands`);
    // a variable's value goes where its key sends it: a key hey hides from the agent's commands may be among them
    for (const v of sentVars(data)) out.push(`send the value of \${${v.name}} as ${where(v.path)}`);
  }
  return out;
}
