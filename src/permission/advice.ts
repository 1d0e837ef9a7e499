// What an allow list's refusal tells the user to change (SPEC §8). The entry offered is built from
// what a pattern can say — the command's leading assignments, git's options that write a file, a
// package manager's that change what it runs and its file redirections spelled out, every other word `*` — and offered only when the matcher that
// refused the command agrees it would allow it: following the advice must never lead to the same
// refusal (`CI=1 npm test` under `bash: npm test *` needs "bash: CI=1 npm test *", `npm test >
// test.log` needs "bash: npm test * > test.log"). Why the entries that match the command's words do
// not allow it is said too. Pure.
import { EXACT_MARK, readEntry } from "./entries.ts";
import { gitDirNamed, gitOutputs, readGit } from "./git.ts";
import { type GitAllowed, gitMatches } from "./git-allow.ts";
import { managerOptions } from "./manager-options.ts";
import { allowMatch, allowWords, harmless, type Pattern, program, runsInput, spelledOnly } from "./match.ts";
import { INTERPRETER } from "./stdin-code.ts";
import { RUNNERS } from "./script-files.ts";
import { fixed, type Segment, type Word } from "./shell-model.ts";
import { FED, stdinSources, unopened } from "./shell-stdin.ts";
import { WRAPPERS } from "./wrappers.ts";

/** The entry that would allow a refused command (none when no pattern can), and why the list's entries do not ("" when none comes close). */
export interface Advice {
  entry?: string;
  why: string;
}

/** Programs whose second word is a subcommand, which an entry suggested for a refused command keeps (`npm install *`, `git status *`). */
const SUBCOMMANDED = new Set(["git", "npm", "pnpm", "yarn", "bun", "npx", "cargo", "go", "docker", "podman", "kubectl", "gh", "pip", "uv", "dotnet", "make"]);

/**
 * Programs that delete, overwrite, change modes or owners, end processes or fetch from the network:
 * `PROGRAM *` would allow whatever they can do (`rm *` is `rm -rf ~`, `find *` is `find / -delete`).
 * Those that run code (shells, interpreters, wrappers: RUNNERS, INTERPRETER, WRAPPERS) are as wide.
 */
const DESTRUCTIVE = new Set(
  "rm rmdir unlink find shred dd truncate mkfs wipefs fdisk parted chmod chown chgrp chattr setfacl kill pkill killall curl wget eval exec".split(" "),
);
/** Programs that run a command as another user (root by default): no entry is offered for them, as any would let the agent run as root. */
const ESCALATING = new Set(["sudo", "doas", "su", "runuser", "pkexec", "sudoedit"]);
/** git push's options that overwrite or delete what is on the remote, and a `+` refspec (a forced push of that ref). */
const FORCED_PUSH = /^(-f|--force.*|--mirror|--delete|-d|--prune|\+.+)$/;

/**
 * Advice for `seg`, which no entry of `allow` allows; `git`: how an allow list reads it when it is a
 * git command (git-allow.ts). `show` makes a command's text fit one line of a message.
 */
export function adviceFor(seg: Segment, git: GitAllowed | undefined, allow: Pattern[], show: (text: string) => string, bash3 = true): Advice {
  const base = git?.bare ?? seg;
  const files = base.redirects.filter((r) => !harmless(r));
  // no `*` matches a value known only at run time, and an entry spelling one out would allow whatever it turns out to be
  const cmd = seg.assigns.length;
  const wild = [...seg.assigns, ...seg.words, ...files.map((r) => r.target)].find((w, i) => w.unknown || (w.glob && i === cmd));
  if (wild) return { why: `\`${show(wild.raw)}\` is known only at run time${stdinForm(seg, wild, bash3)}` };
  const name = base.words[0] && program(base.words[0].text);
  if (name && ESCALATING.has(name))
    return { why: `\`${name}\` runs a command as another user, root unless told otherwise, which hey offers no entry for: run it yourself` };
  // what an interpreter reads on stdin is code no entry spells out, so none allows it (match.ts runsInput): `bash: python3 $` would run any program
  if (name && runsInput(seg))
    return {
      why: `\`${name}\` may run what it reads on stdin (here ${stdinFrom(seg)}) as code, which no entry can spell out, so none is offered: write it to a file and name the file`,
    };
  // a wide command's own words as written: an exact entry does not set git's `-C DIR` aside (git-allow.ts)
  const entry = entryFor(base.words[0] && wide(base) ? seg : base);
  const allows = (p: Pattern) => (git ? gitMatches(seg, git, [p]).by.length > 0 : allowMatch(seg, p));
  // an entry with a control character could not be written into the config as shown
  const read = entry && !/[\x00-\x1f\x7f]/.test(entry) ? readEntry(entry, "allow") : undefined;
  const offered = read && "pattern" in read && allows(read.pattern) ? entry : undefined;
  return { ...(offered ? { entry: offered } : {}), why: whyNot(base, files, allow, show) };
}

/** Where the stdin an interpreter may run as code comes from, for runsInput's refusal. */
function stdinFrom(seg: Segment): string {
  const sources = seg.piped ? [] : stdinSources(seg);
  if (sources.some(unopened)) return "an fd the command does not open, which holds what only the run knows";
  if (sources.some((r) => !seg.redirects.includes(r) && r !== FED)) return "what the group, loop or function call around it or an earlier `exec` gives it";
  return "a heredoc, a here-string or a pipe";
}

/**
 * `bash: [ASSIGNS] PROGRAM [SUB] * [git's file options] * [REDIRECTIONS]`: the entry `adviceFor`
 * checks before offering it. For a program that can destroy or run anything (`wide`), the command's
 * own words and nothing after (`bash: rm -rf build $`), which a user can widen knowingly.
 */
function entryFor(seg: Segment): string | undefined {
  const [name, next] = seg.words;
  if (!name) return undefined;
  const sub = next && SUBCOMMANDED.has(program(name.text)) && /^[a-z][a-z0-9:-]*$/.test(next.text) ? [next.text] : [];
  const writes = new Set(spelledOnly(seg.words));
  // a glob that could be such an option matches the same glob in an entry, whatever it expands to
  // (`bash: git diff * *.ts *` would let `git diff *.ts` write a file named `--output=` and a name ending in .ts): only the `--` form is safe
  if ([...writes].some((k) => !fixed(seg.words[k]!))) return undefined;
  const own = wide(seg);
  const rest: string[] = [];
  for (let k = 1 + sub.length; k < seg.words.length; k++) {
    const spelled = own || writes.has(k) ? seg.words[k]!.raw : "*";
    if (spelled !== "*" || rest.at(-1) !== "*") rest.push(spelled);
  }
  if (!own && rest.at(-1) !== "*") rest.push("*");
  const files = seg.redirects.filter((r) => !harmless(r)).map((r) => `${r.op} ${r.target.raw}`);
  // a name the shell reads as one word only when quoted (`"./my tool"`) keeps its quotes
  const named = /^[\w@%+=:,./-]+$/.test(name.text) ? name.text : name.raw;
  // a wide program's own words end with the exact mark: `bash: rm -rf build` would allow `rm -rf build ~` too
  const end = own ? [EXACT_MARK] : [];
  return `bash: ${[...seg.assigns.map((w) => w.raw), named, ...sub, ...rest, ...files, ...end].join(" ")}`;
}

/** Whether `PROGRAM *` would let `seg`'s program destroy or run anything: then only its own words are offered. */
function wide(seg: Segment): boolean {
  const name = program(seg.words[0]!.text);
  if (name === "git") return seg.words.some((w) => w.text === "push") && seg.words.some((w) => FORCED_PUSH.test(w.text));
  const sub = seg.words[1] && /^[a-z][a-z0-9:-]*$/.test(seg.words[1].text);
  if (SUBCOMMANDED.has(name) && sub) return false; // `npm install *`, `make test *`: the subcommand bounds it (`bun -e CODE` has none)
  return DESTRUCTIVE.has(name.replace(/\.[^.]*$/, "")) || RUNNERS.has(name) || INTERPRETER.test(name) || Object.hasOwn(WRAPPERS, name);
}

/**
 * What keeps the entries that match the command's words from allowing it: git's options that write
 * a file, its leading assignments, its file redirections. "" when no entry matches its words.
 */
function whyNot(seg: Segment, files: Segment["redirects"], allow: Pattern[], show: (text: string) => string): string {
  const output = gitOutputs(seg.words)[0];
  const name = seg.words[0] && program(seg.words[0].text);
  if (output !== undefined && allow.some((p) => p.words[0]?.text === "git")) {
    const w = seg.words[output]!;
    return fixed(w)
      ? `\`${show(w.raw)}\` writes a file, which a pattern must spell out`
      : `\`${show(w.raw)}\` is known only at run time and could expand to git's \`--output=FILE\` (a file may be so named), which writes that file: put \`--\` before paths (\`${show(withEnd(seg.words, output))}\`)`;
  }
  const dir = gitDirNamed(seg.words)[0];
  if (dir !== undefined && allow.some((p) => p.words[0]?.text === "git"))
    return `\`${show(seg.words[dir]!.raw)}\` names a git directory outside \`.git\` (git runs its config's commands and its hooks; the agent may fill it), which a pattern must spell out`;
  const option = managerOptions(seg.words)[0];
  if (option !== undefined && name && allow.some((p) => p.words[0] && program(p.words[0].text) === name)) {
    const w = seg.words[option]!;
    return fixed(w)
      ? `\`${show(w.raw.replace(/=.*/s, "=…"))}\` changes what ${name} runs (the program its scripts run with, node's options or a config file that sets them), which a pattern must spell out`
      : `\`${show(w.raw)}\` is known only at run time and could expand to an option of ${name}'s that changes what it runs (a file may be named \`--script-shell=./x\`): put \`--\` before the script's arguments (\`${show(withEnd(seg.words, option))}\`)`;
  }
  const words = allow.find((p) => allowWords(seg, p));
  const bare = words ?? (seg.assigns.length ? allow.find((p) => !p.assigns && allowWords({ ...seg, assigns: [] }, p)) : undefined);
  if (!bare) return "";
  const missing = [
    ...(words ? [] : [`the assignment${seg.assigns.length > 1 ? "s" : ""} ${seg.assigns.map((w) => `\`${show(w.raw)}\``).join(" ")}`]),
    ...(files.length
      ? [`the redirection${files.length > 1 ? "s" : ""} to a file ${files.map((r) => `\`${show(`${r.op} ${r.target.raw}`)}\``).join(" ")}`]
      : []),
  ];
  return missing.length ? `\`${bare.entry}\` does not allow ${missing.join(" or ")}, which a pattern must spell out` : "";
}

/** The command as written with `--` before the word at `at`: where its options end. */
const withEnd = (words: Word[], at: number): string => [...words.slice(0, at), { raw: "--" }, ...words.slice(at)].map((v) => v.raw).join(" ");

/**
 * For a message given as `"$(cat <<'EOF' … EOF)"` that is not known (where bash 3.x may run it, one
 * it would end elsewhere: a lone `'` or an unmatched `)` in it, shell-words.ts), the form with no
 * such limit: the text on stdin. git's subcommand is found past its own options (`git -c k=v commit`).
 */
function stdinForm(seg: Segment, wild: Word, bash3: boolean): string {
  if (!/^"\$\(\s*cat\s+<<-?\s*(['"])[^'"]+\1/.test(wild.raw)) return "";
  const [name] = seg.words;
  const at = name && program(name.text) === "git" ? readGit(seg.words)?.sub : undefined;
  const sub = at === undefined ? undefined : seg.words[at]!.text;
  const why = bash3 ? " (bash 3.2, macOS's, would end `$(…)` early at a lone `'` or an unmatched `)` in it)" : "";
  return sub && /^(commit|tag|notes)$/.test(sub)
    ? `: give the text on stdin instead, \`git ${sub} -F - <<'EOF'\` … \`EOF\`${why}`
    : `: give the text on stdin or in a file instead${why}`;
}
