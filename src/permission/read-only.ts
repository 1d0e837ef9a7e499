// Commands that surely change nothing (SPEC §9 ordering): `git status`, `ls`, `grep -r x src | head`.
// The bash calls of one turn that are all of this kind may run at once; any other command runs alone,
// in call order (`git add a` beside `git commit`: git's index.lock). Read with the permission
// checker's shell reader; whatever it cannot read, or reads as running code it cannot see, may
// change anything. Pure.
import { isInert } from "./builtins.ts";
import { writes } from "./control-files.ts";
import { gitOutputs, readGit } from "./git.ts";
import { program } from "./match.ts";
import { optionsRead } from "./reader-options.ts";
import { readingOf } from "./rules.ts";
import { parseCommand } from "./shell-commands.ts";
import { known, type Segment, type Word } from "./shell-model.ts";

/** Programs that only read and print, whatever their options (not sort: `-o`; not uniq: `uniq IN OUT`; not xxd: `-r`; not less: `-o FILE`; not bat: `--pager=CMD`). */
const READERS = new Set(
  (
    "ls,cat,head,tail,more,grep,egrep,fgrep,rg,ag,wc,file,stat,du,df,tree,pwd,echo,printf,which,whereis,type,date,uname,whoami,id,hostname," +
    "printenv,basename,dirname,realpath,readlink,diff,cmp,comm,md5sum,sha1sum,sha256sum,sha512sum,cksum,b2sum,od,hexdump,strings,jq,nl,tac,cut,tr," +
    "column,fold,rev,paste,join,expr,seq,true,false,test,[,sleep,ps,pgrep,nproc,free,uptime,locale,getconf,find"
  ).split(","),
);
/** The programs whose own words (a wrapper's options, a shell's `-c`) run only the command they are given, seen as a segment of its own. */
const RUNNERS = new Set(["env", "timeout", "nice", "ionice", "time", "command", "builtin", "stdbuf", "xargs", "sh", "bash", "dash", "eval", "exec", "nohup"]);
/** find's actions that delete or write files (its -exec commands are segments of their own). */
const FIND_WRITES = /^-(delete|fprint0?|fprintf|fls)$/;
/**
 * git subcommands that change nothing (their listing forms: see gitReads). diff, log and show run
 * the diff and textconv programs the user's git config names, as they do when the user types them;
 * `-c`, `git config` and GIT_CONFIG_* assignments, the ways to name another, never read only.
 */
const GIT_READERS = new Set(
  (
    "status,diff,log,show,blame,annotate,ls-files,ls-tree,ls-remote,rev-parse,rev-list,describe,shortlog,cat-file,grep,check-ignore,merge-base," +
    "name-rev,for-each-ref,show-ref,count-objects,var,help,version,whatchanged,range-diff,cherry"
  ).split(","),
);

/** Whether `command`, run by the shell named `shell` (ShellChoice.name), surely changes nothing: no file, no repository, no process. Never throws. */
export function readsOnly(command: string, shell: string): boolean {
  const reading = readingOf(shell);
  if (reading === undefined || reading === "powershell") return false;
  const parsed = parseCommand(command, reading);
  return parsed.ok && parsed.segments.every(segmentReads);
}

function segmentReads(seg: Segment): boolean {
  if (seg.opaque || seg.unverified || seg.redirects.some((r) => writes(r) && !(known(r.target) && r.target.text === "/dev/null"))) return false;
  const first = seg.words[0];
  if (!first) return true; // assignments and redirections only
  if (!known(first)) return false;
  const name = program(first.text);
  if (seg.inert === "builtin") return isInert(seg, "dash") || isInert(seg, "bash") ? !["read", "ulimit", "umask", "hash", "alias"].includes(name) : false;
  if (seg.inert === "words" && RUNNERS.has(name)) return true;
  if (name === "find") return seg.words.every((w) => known(w) && !FIND_WRITES.test(w.text));
  if (name === "git") return gitReads(seg.words);
  if (name === "rg" || name === "file") return seg.words.every(known) && optionsRead(name, seg.words.slice(1));
  return READERS.has(name);
}

/** git with a subcommand that only reads, in a form that only lists (`git branch`, not `git branch new`). */
function gitReads(words: Word[]): boolean {
  const read = readGit(words);
  if (!read || read.runs || read.sub === undefined || read.unsure || gitOutputs(words).length) return false;
  const sub = words[read.sub]!.text;
  const rest = words.slice(read.sub + 1).map((w) => (known(w) ? w.text : "\0"));
  if (rest.includes("\0")) return false;
  if (GIT_READERS.has(sub)) return true;
  const operands = rest.filter((t) => !t.startsWith("-"));
  if (sub === "branch" || sub === "tag")
    return (
      operands.length === 0 && rest.every((t) => /^(-[arvl]+|--(list|all|remotes|verbose|show-current|contains|merged|no-merged|sort=.*|format=.*))$/.test(t))
    );
  if (sub === "remote") return operands.length === 0 || operands[0] === "get-url" || operands[0] === "show";
  if (sub === "stash" || sub === "worktree") return operands[0] === "list" || (sub === "stash" && operands[0] === "show");
  return false;
}
