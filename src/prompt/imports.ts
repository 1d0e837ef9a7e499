// `@path` imports in a CLAUDE.md, as Claude Code reads them: a word that starts with `@` outside
// code (fenced blocks, inline code spans) names a file whose text joins the instructions, unless
// its name says it holds secrets (secretStore). Pure: agents-md.ts resolves and reads what this finds.

/** One `@path` found in a file: the path as written (trailing punctuation off) and its 1-based line. */
export interface ImportRef {
  path: string;
  line: number;
}

/** How many hops of imports are followed from a CLAUDE.md (Claude Code's limit). */
export const IMPORT_DEPTH_MAX = 5;
/** How many imported files one reading takes in; the rest are named in a warning. */
export const IMPORTS_MAX = 20;

/**
 * The `@path` words of `text`, in order. An `@` counts at the start of a line or after white
 * space (so `user@host` is no import) and not inside code: ```/~~~ fences or `` `spans` ``.
 * Trailing sentence punctuation is not part of the path (`see @docs/style.md.`).
 */
export function importRefs(text: string): ImportRef[] {
  const refs: ImportRef[] = [];
  let fence: string | undefined;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const prose = line.replace(/(`+)(?:.*?[^`])?\1(?!`)/g, " "); // a span closes on a run of its own length
    for (const m of prose.matchAll(/(?:^|\s)@([^\s@`]+)/g)) {
      const path = (m[1] ?? "").replace(/[.,;:!?)\]}'"]+$/, "");
      if (path !== "") refs.push({ path, line: i + 1 });
    }
  }
  return refs;
}

/** Whether `path` looks like a file (an extension, or `./`, `../`, `~/` ahead), not a handle or a package scope (`@alice`, `@types/node`). */
export function looksLikeFile(path: string): boolean {
  return /\.[A-Za-z0-9]{1,10}$/.test(path) || path.startsWith("./") || path.startsWith("../") || path.startsWith("~/");
}

/** Directories whose files are credentials, never instructions, wherever they are (`~/.ssh`, a project's `.aws/`). */
const SECRET_DIRS = [[".ssh"], [".aws"], [".gnupg"], [".docker"], [".kube"], [".azure"], [".password-store"], [".config", "gcloud"], [".config", "gh"]];

/** Names of files that hold secrets: dotenv and direnv files, keys and keystores, login files. */
const SECRET_FILES: [pattern: RegExp, what: string][] = [
  [/^\.env(rc)?(\..*)?$|\.env$/i, "a .env file"],
  [/\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk|gpg)$|^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/i, "a key file"],
  [/^(\.netrc|_netrc|\.pgpass|\.git-credentials|\.npmrc|\.pypirc|\.htpasswd)$|^(secrets?|credentials?)(\.(?!md$)[^/\\]*)?$/i, "a credentials file"],
];

/**
 * What secrets `path` (an import's target, links resolved) holds by its name — `a .env file`,
 * `under .ssh` — or undefined for a file that may hold instructions. Its text would go to the
 * model's provider with every request, so such a file is never imported, trusted project or not.
 */
export function secretStore(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  for (let i = 0; i < parts.length - 1; i++) {
    const dir = SECRET_DIRS.find((d) => d.every((name, j) => parts[i + j] === name) && i + d.length < parts.length);
    if (dir) return `under ${dir.join("/")}`;
  }
  const name = parts[parts.length - 1] ?? "";
  return SECRET_FILES.find(([pattern]) => pattern.test(name))?.[1];
}
