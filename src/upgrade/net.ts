// The fetch `hey upgrade` downloads with: the proxy and CAs a run uses (SPEC §16, §24) — HEY_PROXY,
// [proxy] url and [network] ca_file of the user config, the proxy variables (SOCKS5 included) and
// SSL_CERT_FILE — through the run's own fetch (net/fetch.ts). The user config counts as it does for a
// run, with what the user approved of it (config/approvals.ts): the release is checked against its
// signature whatever the route, but a `[proxy] url` the agent may have written would still see (and
// could stall) every download, so one not approved yet holds the requests back, as in a run.
import { homedir } from "node:os";
import { readApprovalsForRun } from "../config/approval-store.ts";
import { pendingCaFile } from "../config/guard.ts";
import { loadUserLayer } from "../config/load.ts";
import { resolveConfig } from "../config/resolve.ts";
import type { Settings } from "../config/settings.ts";
import { homeOf, places } from "../fs/places.ts";
import { errorText } from "../kernel/errors.ts";
import { trustedCas } from "../net/ca.ts";
import { proxiedFetch } from "../net/fetch.ts";

type Env = Record<string, string | undefined>;

/**
 * The download fetch, and what `warn` is told: nothing when the user config gave its settings (or
 * has none), else why it could not be read and that only the environment's settings apply; a broken
 * approvals record, which then approves nothing. Throws NetConfigError for a CA file or proxy value
 * that cannot be used, naming where it was set. Its requests fail with a NetError
 * ("proxy_unapproved") where only a `[proxy] url` not approved yet would route them.
 */
export function upgradeFetch(env: Env, warn: (message: string) => void): typeof fetch {
  const here = places(env, homeOf(env, process.platform, homedir), process.cwd(), process.platform);
  let user: Pick<Settings, "proxy" | "proxySource" | "network"> = { network: {} };
  let pendingCa: string | undefined; // a ca_file left out: a certificate error says it waits for approval, as a run's does
  try {
    const layer = loadUserLayer(here.userConfig, readApprovalsForRun(here.approvalsFile, warn));
    const resolved = resolveConfig(layer ? [layer] : [], env, {});
    user = resolved.settings;
    pendingCa = pendingCaFile(resolved.guards);
  } catch (e) {
    warn(`${errorText(e)}: its [proxy] url and [network] ca_file are not used; the download goes by HEY_PROXY, the proxy variables and SSL_CERT_FILE`);
    if (env.HEY_PROXY?.trim()) user = { proxy: env.HEY_PROXY, proxySource: "HEY_PROXY", network: {} };
  }
  const ca = trustedCas(user.network);
  return proxiedFetch(
    { config: user.proxy, configSource: user.proxySource, env, held: user.network.heldProxy },
    { ...(ca ? { ca } : {}), ...(pendingCa ? { pendingCa } : {}) },
  );
}
