// Which programs only read the files they name (control-arguments.ts, filled-words.ts and the
// other control checks pass them), and whether what a program names is judged as written: a
// reader (`cat`, `grep`, `wc`), a git reader (`git diff`), find without an action that writes or
// runs, `prettier --check`; sed without `-i`. Pure.
import { decided } from "./control-files.ts";
import { gitOutputs, readGit } from "./git.ts";
import { program } from "./match.ts";
import type { Segment } from "./shell-model.ts";

/** Programs that only read the files they name (none of their options writes one). */
const READERS = new Set(
  // not xxd (`xxd -r HEX OUT` writes OUT), sort (`-o`), uniq (`uniq IN OUT`), split, base64 (`-o` on macOS)
  (
    "cat,head,tail,less,more,bat,grep,egrep,fgrep,rg,ag,diff,cmp,wc,ls,stat,file,md5sum,sha1sum,sha256sum,sha512sum,b2sum,cksum,od,hexdump,strings,jq," +
    "readlink,realpath,basename,dirname,test,[,[[,echo,printf,nl,tac,cut,du,type,command," +
    // PowerShell's (lowercase, as program() gives them)
    "get-content,gc,select-string,sls,get-childitem,gci,dir,get-item,gi,test-path,resolve-path,get-filehash,write-output"
  ).split(","),
);
/** git subcommands that read files and write none of them. */
const GIT_READERS = new Set(["diff", "log", "show", "status", "blame", "ls-files", "grep", "cat-file", "check-ignore", "annotate", "add", "commit"]);

/**
 * find(1)'s actions that delete, write a file (`-fprint FILE`, `-fprintf FILE FORMAT`, `-fls FILE`)
 * or run a command on what it finds (the command is a segment of its own, handed `{}`, which names
 * no file to this check): looked for in the whole find command as written.
 */
const FIND_ACTS = /(^|[\s'"])-(delete|exec|execdir|ok|okdir|fprint0?|fprintf|fls)(?![\w-])/;

/** Whether the segment's program only reads what it names: a reader, a git reader, find without an action that writes or runs a command (every word known: one could be `-delete`). */
export function reads(seg: Segment): boolean {
  const first = seg.words[0];
  if (!first || !decided(first)) return false;
  const name = program(first.text);
  if (name === "find") return seg.words.every(decided) && !FIND_ACTS.test(seg.raw);
  // `prettier --check`/`--list-different` reports and writes nothing, unless `--write` too
  if (name === "prettier")
    return (
      seg.words.every((w) => decided(w) || !!w.filled) &&
      seg.words.some((w) => /^(-c|--check|-l|--list-different)$/.test(w.text)) &&
      !seg.words.some((w) => /^(-w|--write)$/.test(w.text))
    );
  if (name !== "git") return READERS.has(name);
  // past git's own options: `git -C ~/.config/hey status` reads
  const at = readGit(seg.words)?.sub;
  const sub = at !== undefined ? seg.words[at] : seg.words.slice(1).find((w) => !decided(w) || !w.text.startsWith("-"));
  return !!sub && decided(sub) && GIT_READERS.has(sub.text) && !seg.words.some((w) => /^--ext-diff/.test(w.text)) && !gitOutputs(seg.words).length;
}

/**
 * Whether what the segment names is judged as written: not for sed without -i, which reads it (the
 * model reads a full output in hey's cache with `sed -n 100,200p FILE`; its `w FILE` is judged apart,
 * sed-scripts.ts); find's `{}` is a path, never `-i`.
 */
export const guards = (seg: Segment): boolean =>
  !(
    decided(seg.words[0]!) &&
    program(seg.words[0]!.text) === "sed" &&
    seg.words.every((w) => (decided(w) || w.filled?.by === "find") && !/^-(-in-place|[a-zA-Z]*i)/.test(w.text))
  );
