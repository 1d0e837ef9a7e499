// The fetch `hey upgrade` downloads with: the proxy and CAs a run uses (SPEC §16, §24) — HEY_PROXY,
// [proxy] url and [network] ca_file of the user config, the proxy variables (SOCKS5 included) and
// SSL_CERT_FILE — through the run's own fetch (net/fetch.ts). The release is checked against its
// signature whatever the route, so the user config's values are used without a run's approval.
import { homedir } from "node:os";
import { loadLayer } from "../config/load.ts";
import { resolveConfig } from "../config/resolve.ts";
import { homeOf, places } from "../fs/places.ts";
import { errorText } from "../kernel/errors.ts";
import { trustedCas } from "../net/ca.ts";
import { proxiedFetch } from "../net/fetch.ts";

type Env = Record<string, string | undefined>;

/**
 * The download fetch, and what `warn` is told: nothing when the user config gave its settings (or
 * has none), else why it could not be read and that only the environment's settings apply. Throws
 * NetConfigError for a CA file or proxy value that cannot be used, naming where it was set.
 */
export function upgradeFetch(env: Env, warn: (message: string) => void): typeof fetch {
  const file = places(env, homeOf(env, process.platform, homedir), process.cwd(), process.platform).userConfig;
  let user: { proxy?: string; proxySource?: string; network: { caFile?: string; caFileSource?: string } } = { network: {} };
  try {
    const layer = loadLayer(file, { required: false });
    user = resolveConfig(layer ? [layer] : [], env, {}).settings;
  } catch (e) {
    warn(`${errorText(e)}: its [proxy] url and [network] ca_file are not used; the download goes by HEY_PROXY, the proxy variables and SSL_CERT_FILE`);
    if (env.HEY_PROXY?.trim()) user = { proxy: env.HEY_PROXY, proxySource: "HEY_PROXY", network: {} };
  }
  const ca = trustedCas(user.network);
  return proxiedFetch({ config: user.proxy, configSource: user.proxySource, env }, ca ? { ca } : {});
}
