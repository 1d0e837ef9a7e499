// Sign-ins to remote MCP servers (issue 27), one file per server URL under hey's config directory
// (`~/.config/hey/mcp-auth/`): the client registration, the tokens (with when they expire) and what
// discovery found. Files are 0600 in a 0700 directory, written atomically, never through a link.
// Every token and client secret this process reads or writes is remembered, so the redaction layer
// keeps them out of the terminal, the JSON events, the session and the debug log.
// Several heys share a file (a REPL, a `hey -p` from a git hook, `hey mcp login` in another
// terminal): a refresh and every read-modify-write of it hold its lock (fs/file-lock.ts), so one
// hey's rotated refresh token is never refreshed again, nor written over, by another.
import { mkdirSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";
import { withFileLock } from "../fs/file-lock.ts";
import { checkOwnFile, readOwnFile } from "../fs/own-files.ts";
import { errnoCode } from "../kernel/errors.ts";
import { watchSignIns, type SignInWatch } from "./sign-in-watch.ts";

/** A sign-in file larger than this is not read (no registration or token is that big). */
const MAX_FILE_BYTES = 256 * 1024;

/**
 * How long a hey waits for another's lock on a sign-in file: the holder may be waiting on the token
 * endpoint for a refresh, which can take seconds. A waiter that gives up goes on with the tokens
 * as stored.
 */
export const LOCK_WAIT_MS = 15_000;

/** Tokens as the authorization server sent them, and when the access token expires (ms since the epoch). */
export interface StoredTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  /** the authorization server they came from (the SDK's, kept unchanged) */
  issuer?: string;
  expires_at?: number;
  [key: string]: unknown;
}

/** What is kept for one server URL. `client`, `discovery`: the SDK's objects, kept unchanged. */
export interface Credentials {
  url: string;
  client?: Record<string, unknown> & { client_id: string; client_secret?: string; redirect_uris?: string[] };
  tokens?: StoredTokens;
  discovery?: Record<string, unknown>;
}

export interface CredentialStore {
  /** where the file of `url` is (for messages) */
  pathOf(url: string): string;
  /** the sign-in of `url`, or undefined (none, or unreadable: treated as none) */
  read(url: string): Credentials | undefined;
  /** replaces the sign-in of `url`; throws when it cannot be written. Inside `locked` only, or for a file no other hey writes. */
  write(credentials: Credentials): Promise<void>;
  /**
   * Runs `fn` holding the lock of `url`'s file against every other hey (and this process's other
   * callers), so what it reads is still there when it writes. Waits up to LOCK_WAIT_MS, then throws
   * FileLockedError; throws what `fn` throws. Never hold it across a browser sign-in.
   */
  locked<T>(url: string, fn: () => Promise<T>): Promise<T>;
  /** removes the sign-in of `url`; whether there was one */
  remove(url: string): boolean;
  /** every token and client secret read or written so far, for redaction */
  secrets(): string[];
}

/** The file name of a URL: a hash, so no URL becomes a path. */
function fileName(url: string): string {
  return `${new Bun.CryptoHasher("sha256").update(normalUrl(url)).digest("hex").slice(0, 24)}.json`;
}

/** The URL a sign-in is kept under: as `new URL` writes it (so `HTTPS://X/mcp` and `https://x/mcp` share one). */
export function normalUrl(url: string): string {
  return URL.canParse(url) ? new URL(url).href : url;
}

export function createCredentialStore(configDir: string): CredentialStore {
  const dir = join(configDir, "mcp-auth");
  const seen = new Set<string>();
  const remember = (c: Credentials | undefined) => {
    for (const v of [c?.tokens?.access_token, c?.tokens?.refresh_token, c?.client?.client_secret]) if (typeof v === "string" && v !== "") seen.add(v);
    return c;
  };
  const pathOf = (url: string) => join(dir, fileName(url));
  return {
    pathOf,
    read(url) {
      try {
        const got = readOwnFile(pathOf(url), MAX_FILE_BYTES);
        if (!got || got.truncated) return undefined;
        const data = JSON.parse(got.text) as Credentials;
        return data && data.url === normalUrl(url) ? remember(data) : undefined;
      } catch {
        return undefined; // unreadable: as if never signed in, and the next sign-in replaces it
      }
    },
    async write(credentials) {
      remember(credentials);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const path = pathOf(credentials.url);
      await writeFileAtomic(path, JSON.stringify({ ...credentials, url: normalUrl(credentials.url) }, null, 2) + "\n", { own: true, mode: 0o600 });
    },
    locked: (url, fn) => withFileLock(pathOf(url), fn, { private: true, waitMs: LOCK_WAIT_MS }),
    remove(url) {
      const path = pathOf(url);
      checkOwnFile(path);
      try {
        unlinkSync(path);
        return true;
      } catch (e) {
        if (errnoCode(e) === "ENOENT") return false;
        throw e;
      }
    },
    secrets: () => [...seen],
  };
}

/** What changes whenever the sign-in file of `url` is written (each write is a new file: its inode), undefined when there is none: one stat. */
export function signInStamp(store: Pick<CredentialStore, "pathOf">, url: string): string | undefined {
  try {
    const s = statSync(store.pathOf(url));
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return undefined;
  }
}

/** The sign-ins of `store` (the run's now), watched for one made outside this hey (sign-in-watch.ts). */
export function watchStore(store: () => CredentialStore): SignInWatch {
  return watchSignIns({ stamp: (url) => signInStamp(store(), url), read: (url) => store().read(url) });
}
