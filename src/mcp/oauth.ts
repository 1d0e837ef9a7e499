// hey's side of the MCP authorization spec (issue 27): the OAuthClientProvider the SDK's client auth
// drives (discovery, dynamic client registration, PKCE, token exchange and refresh are the SDK's
// own). It keeps the sign-in in the credential store, one per server URL. Two modes:
// - background (a run connecting to a server it has tokens for): tokens are attached and refreshed
//   shortly before they expire (or after, while the refresh token holds); nothing is ever registered, and a flow that would need the user's
//   browser only records that a sign-in is needed (the server is then shown as auth required);
// - sign-in (`hey mcp login`): registers when needed, sends the user to the authorization URL and
//   has the loopback redirect listener's address as redirect URL.
// Several heys may share a sign-in: a refresh and every write hold the store's lock of it, and a
// refused grant drops only what this hey used (see `invalidated`).
// Pure: the store, the clock and the refresh are given.
import type { McpServerSettings } from "../config/settings.ts";
import type { CredentialStore, Credentials, StoredTokens } from "./credentials.ts";

/** A token that expires within this long is refreshed before it is used. */
export const REFRESH_BEFORE_MS = 60_000;

/** The steps of a sign-in, in order; a failure names the one it happened in. */
export type Step = "discovery" | "client registration" | "authorization request" | "browser sign-in" | "token exchange";

export interface SignInMode {
  /** the loopback listener's callback URL */
  redirectUrl: string;
  /** the OAuth `state` sent and expected back */
  state: string;
  /** sends the user to the authorization URL (prints it, opens the browser) */
  open(url: URL): void | Promise<void>;
}

export interface ProviderOptions {
  url: string;
  store: CredentialStore;
  /** `client_id` / `client_secret` from the server's table: used instead of registering */
  client?: { id: string; secret?: string };
  now(): number;
  /** sign-in mode; background when absent */
  signIn?: SignInMode;
  /**
   * background: refreshes the tokens through the SDK (`auth()` with `p`, a view of this provider
   * whose tokens() hands over the stored tokens as they are, expired ones too: the refresh token is
   * what the SDK reads them for); errors are the caller's to swallow
   */
  refresh?(p: HeyOAuthProvider): Promise<unknown>;
}

/** The provider the SDK calls (its OAuthClientProvider, structurally), plus where a sign-in got to. */
export interface HeyOAuthProvider {
  readonly redirectUrl: string;
  readonly clientMetadata: Record<string, unknown>;
  state(): string;
  clientInformation(): Credentials["client"] | undefined;
  saveClientInformation?(info: Record<string, unknown>): Promise<void>;
  tokens(): Promise<StoredTokens | undefined>;
  saveTokens(tokens: Record<string, unknown>): Promise<void>;
  redirectToAuthorization(url: URL): Promise<void>;
  saveCodeVerifier(verifier: string): void;
  codeVerifier(): string;
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void>;
  saveDiscoveryState(state: Record<string, unknown>): Promise<void>;
  discoveryState(): Record<string, unknown> | undefined;
  /** the step a sign-in is at (a failure happened in it) */
  readonly step: Step;
  /** background: a flow reached the point where only a new sign-in helps */
  readonly needsSignIn: boolean;
}

/** What hey registers as: a public client (PKCE) unless a secret is configured. */
export function clientMetadata(redirectUrl: string, secret: boolean): Record<string, unknown> {
  return {
    client_name: "hey",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: secret ? "client_secret_post" : "none",
  };
}

/** Tokens as kept: with when the access token expires, from `expires_in` and the time they came. */
export function withExpiry(tokens: Record<string, unknown>, now: number): StoredTokens {
  const t = tokens as StoredTokens;
  return { ...t, ...(typeof t.expires_in === "number" ? { expires_at: now + t.expires_in * 1000 } : {}) };
}

/**
 * Whether `tokens` should be refreshed before the next request: within REFRESH_BEFORE_MS of their
 * expiry, or within half their life when that is shorter (a 30-second token is not refreshed at
 * every request).
 */
export function dueForRefresh(tokens: StoredTokens | undefined, now: number): boolean {
  if (tokens?.refresh_token === undefined || tokens.expires_at === undefined) return false;
  const life = typeof tokens.expires_in === "number" ? tokens.expires_in * 1000 : Number.POSITIVE_INFINITY;
  return tokens.expires_at - now < Math.min(REFRESH_BEFORE_MS, life / 2);
}

/** The redirect port of a stored registration on 127.0.0.1, so a new sign-in can reuse it. */
export function registeredPort(c: Credentials | undefined): number | undefined {
  for (const uri of c?.client?.redirect_uris ?? []) {
    const u = URL.canParse(uri) ? new URL(uri) : undefined;
    if (u && u.hostname === "127.0.0.1" && u.port) return Number(u.port);
  }
  return undefined;
}

/** Whether `tokens` can still be used: an access token not past its expiry, or a refresh token to get another (a cancelled sign-in says whether one holds). */
export function stillSignedIn(tokens: StoredTokens | undefined, now: number): boolean {
  return !!tokens?.access_token && (tokens.expires_at === undefined || tokens.expires_at > now || tokens.refresh_token !== undefined);
}

/** Whether `a` and `b` are the same grant: a refresh or a new sign-in changes both tokens, or at least the access token. */
export function sameTokens(a: StoredTokens | undefined, b: StoredTokens | undefined): boolean {
  return a?.access_token === b?.access_token && a?.refresh_token === b?.refresh_token;
}

/** What one provider last used: the tokens it handed to the SDK or stored, the registration it handed out. */
export interface Used {
  tokens?: StoredTokens;
  clientId?: string;
}

/**
 * What is kept of `c` when the SDK gives up on `scope` (a refresh refused with invalid_grant drops
 * the tokens; an unknown client, everything): only what this hey used and was refused goes. Tokens
 * or a registration another hey stored meanwhile (its refresh, a new `hey mcp login`) stay: the
 * server refused this hey's old ones, not those.
 */
export function invalidated(c: Credentials, scope: "all" | "client" | "tokens" | "discovery", used: Used): Credentials {
  const dropClient = (scope === "all" || scope === "client") && c.client !== undefined && c.client.client_id === used.clientId;
  // tokens granted to a registration that is gone are of no use
  const dropTokens = (scope === "tokens" || scope === "all") && (sameTokens(c.tokens, used.tokens) || (scope === "all" && dropClient));
  return {
    url: c.url,
    ...(c.client && !dropClient ? { client: c.client } : {}),
    ...(c.tokens && !dropTokens ? { tokens: c.tokens } : {}),
    ...(c.discovery && scope !== "all" && scope !== "discovery" ? { discovery: c.discovery } : {}),
  };
}

export function createOAuthProvider(opts: ProviderOptions): HeyOAuthProvider {
  const { url, store, signIn } = opts;
  const current = () => store.read(url) ?? { url };
  // every read-modify-write holds the file's lock; a refresh already holds it and writes as it is
  const update = (change: (c: Credentials) => Credentials) => store.locked(url, () => store.write(change(current())));
  const updateHeld = (change: (c: Credentials) => Credentials) => store.write(change(current()));
  const configured = opts.client ? { client_id: opts.client.id, ...(opts.client.secret ? { client_secret: opts.client.secret } : {}) } : undefined;
  // background: the redirect URL of the registration (never visited); sign-in: the listener's
  const redirectUrl = signIn?.redirectUrl ?? current().client?.redirect_uris?.[0] ?? "http://127.0.0.1/callback";
  let verifier = "";
  let step: Step = "discovery";
  let needsSignIn = false;
  let refreshing: Promise<void> | undefined; // one refresh for every request that finds the token due
  let discovered = false;
  const used: Used = {};
  /** Hands `tokens` to the SDK, remembered as this hey's: an invalidation drops only them. */
  const handOut = (tokens: StoredTokens | undefined) => {
    used.tokens = tokens;
    return tokens;
  };
  /** A token past its stated expiry is not sent: the server would refuse it (some answer 500, not 401); a sign-in is needed. */
  const usable = (tokens: StoredTokens | undefined) => {
    if (tokens?.expires_at === undefined || tokens.expires_at > opts.now()) return tokens;
    needsSignIn = true;
    return undefined;
  };
  /** The methods that write, through `write`: the lock taken for each, or already held. */
  const writers = (write: typeof update) => ({
    async saveTokens(tokens: Record<string, unknown>) {
      const kept = withExpiry(tokens, opts.now());
      used.tokens = kept;
      await write((c) => ({ ...c, tokens: kept }));
    },
    async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
      if (scope === "verifier") return;
      await write((c) => invalidated(c, scope, used));
    },
    async saveDiscoveryState(state: Record<string, unknown>) {
      if (step === "discovery") step = provider.clientInformation() ? "authorization request" : "client registration";
      discovered = true;
      await write((c) => ({ ...c, discovery: state }));
    },
  });
  /**
   * Refreshes the stored tokens, holding the file's lock from the decision to the write. They are
   * read again under the lock: when another hey has refreshed meanwhile (or the user signed in
   * again), its tokens are no longer due and are used as they are — sending the refresh token it already traded would be
   * refused (servers rotate them) and cost this hey its sign-in.
   */
  const refreshHeld = (refresh: NonNullable<ProviderOptions["refresh"]>) =>
    store.locked(url, async () => {
      if (!dueForRefresh(current().tokens, opts.now())) return;
      // the SDK reads the stored tokens as they are, expired ones too: it wants the refresh token
      await refresh({ ...provider, ...writers(updateHeld), tokens: async () => handOut(current().tokens) });
    });
  const provider: HeyOAuthProvider = {
    redirectUrl,
    clientMetadata: clientMetadata(redirectUrl, Boolean(opts.client?.secret)),
    state: () => signIn?.state ?? "",
    clientInformation() {
      if (configured) return configured;
      const client = current().client;
      // a registration for another redirect URL would be refused: a sign-in registers anew
      if (signIn && client && !(client.redirect_uris ?? []).includes(signIn.redirectUrl)) return undefined;
      used.clientId = client?.client_id;
      return client;
    },
    async tokens() {
      if (signIn) return undefined; // a sign-in is asked for: a new one, not a refresh of the old
      const refresh = opts.refresh;
      if (refresh && dueForRefresh(current().tokens, opts.now()))
        // a failed refresh leaves the old token: the request goes with it while it lasts, and a 401 then says what is wrong
        await (refreshing ??= refreshHeld(refresh)
          .then(
            () => {},
            () => {},
          )
          .finally(() => (refreshing = undefined)));
      return handOut(usable(current().tokens));
    },
    ...writers(update),
    async redirectToAuthorization(authorizationUrl) {
      if (!signIn) {
        needsSignIn = true; // background: only the user can go on, with hey mcp login
        return;
      }
      step = "browser sign-in";
      await signIn.open(authorizationUrl);
    },
    saveCodeVerifier(v) {
      verifier = v;
    },
    codeVerifier: () => verifier,
    // a sign-in discovers afresh (the server may have moved), then keeps what it found for the token exchange
    discoveryState: () => (signIn && !discovered ? undefined : current().discovery),
    get step() {
      return step;
    },
    get needsSignIn() {
      return needsSignIn;
    },
  };
  // only a sign-in registers: a background run never leaves registrations behind on the server
  if (signIn && !configured)
    provider.saveClientInformation = async (info) => {
      step = "authorization request";
      used.clientId = (info as { client_id?: string }).client_id;
      await update((c) => ({ ...c, client: info as NonNullable<Credentials["client"]> }));
    };
  return provider;
}

/**
 * The background provider of a remote server hey holds tokens for (`hey mcp login`); none for a
 * server whose headers carry their own Authorization (that one is the user's to keep working),
 * so a server never signed in to meets its 401 without one and shows as auth required.
 */
export function signedIn(
  s: McpServerSettings,
  store: CredentialStore,
  now: () => number,
  refresh: (p: HeyOAuthProvider) => Promise<unknown>,
): HeyOAuthProvider | undefined {
  if (!s.url || Object.keys(s.headers).some((h) => h.toLowerCase() === "authorization") || !store.read(s.url)?.tokens) return undefined;
  return createOAuthProvider({
    url: s.url,
    store,
    ...(s.oauthClient ? { client: s.oauthClient } : {}),
    now,
    refresh,
  });
}
