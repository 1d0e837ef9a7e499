// What a git config file says about `git push` forcing (SPEC §8): a remote's push refspec that
// begins with `+` (`remote.origin.push = +refs/heads/*:refs/heads/*`) or a remote that mirrors
// (`remote.origin.mirror = true`) makes a `git push` without refspecs force, as `--force` does
// (git-config(1), git-push(1)). Also the files it includes (`[include] path`, `[includeIf …] path`,
// every condition taken as met). Read as git-config(1) "Syntax" reads a file: sections
// `[name "sub"]` or `[name.sub]`, names case-insensitive, a key alone meaning true, `#`/`;`
// comments outside quotes. Pure: config/control-context.ts reads the files.

/** A file's forcing setting (`remote.origin.push = +main`, as found), and the paths it includes, as written. */
export interface GitConfigRead {
  forcing?: string;
  includes: string[];
}

const FALSE = /^(false|no|off|0|)$/i;

/** A value as git reads it: quotes removed, escapes resolved, a comment outside quotes dropped, blanks at the ends trimmed. */
function value(raw: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === "\\" && i + 1 < raw.length) out += { n: "\n", t: "\t", b: "\b" }[raw[++i]!] ?? raw[i];
    else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  return out.trim();
}

export function readGitConfig(text: string): GitConfigRead {
  const includes: string[] = [];
  let section = "";
  let sub = "";
  let forcing: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    let rest = line.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(rest);
    if (head) {
      const [name, dotted] = [head[1]!.toLowerCase(), head[1]!.indexOf(".")];
      // `[remote.origin]` (deprecated) is `[remote "origin"]`
      [section, sub] = head[2] !== undefined ? [name, head[2]] : dotted > 0 ? [name.slice(0, dotted), name.slice(dotted + 1)] : [name, ""];
      rest = rest.slice(head[0].length).trim();
      if (!rest) continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(rest);
    if (!kv) continue;
    const key = kv[1]!.toLowerCase();
    const v = kv[2] === undefined ? "true" : value(kv[2]);
    if ((section === "include" || section === "includeif") && key === "path" && v) includes.push(v);
    if (section !== "remote" || forcing) continue;
    if ((key === "push" && v.startsWith("+")) || (key === "mirror" && !FALSE.test(v))) forcing = `remote.${sub}.${key} = ${v}`;
  }
  return { ...(forcing ? { forcing } : {}), includes };
}
