// Other names of what a deny entry refuses (SPEC §8): a deny entry names one program, but a model
// told "no" reaches for another that does the same. For the entries users write to keep an agent
// from deleting, pushing, publishing or sending data, compileRules adds these patterns to the deny
// list; each refuses on behalf of its entry. Only programs that really do the same are here, each
// with where its manual says so. They err towards refusing, as a deny entry must (a `find -delete`
// outside the entry's paths is still `find -delete`), and they never touch an allow list. Pure.
import { readEntry } from "./entries.ts";
import { readGit } from "./git.ts";
import { type Pattern, program } from "./match.ts";
import { discardsAll, discardsFiles } from "./discards.ts";
import { containers } from "./docker-names.ts";
import { emptiesNamed } from "./empties.ts";
import { entryMethod, ghImpliedPost, ghSending, webCmdletAsCurl } from "./methods.ts";
import { code, sendsInCode } from "./interpreter-code.ts";
import { INTERPRETER } from "./stdin-code.ts";
import type { Disk } from "./on-disk.ts";
import { packageProgram } from "./runner-texts.ts";
import type { Segment, Word } from "./shell-model.ts";

/** A deny pattern that refuses on behalf of another entry: `entry` is the user's, `does` says what this one runs. */
export type Equivalent = Pattern & { does: string };

const isOption = (w: Word) => !w.unknown && /^-./.test(w.text) && w.text !== "--";
/** rm's `-r`, `-R`, `--recursive` (or an abbreviation), alone or in a cluster */
const recursiveOption = (w: Word) => /^-[^-]*[rR]/.test(w.text) || /^--rec/.test(w.text);
const raw = (words: Word[]) => words.map((w) => w.raw).join(" ");

/**
 * The equivalents of one deny pattern (none for most): `rm` entries, `git push`, `git reset
 * --hard`, `git branch -d`/`-D`, `npm publish`, curl's `-X METHOD`, docker's commands, `kubectl
 * delete`, `terraform destroy` and `gh pr merge`. An entry that spells out operands (`rm -rf build`) hands them on where
 * the other program takes the same operands; other words of the entry become `*`.
 */
export function equivalents(p: Pattern): Equivalent[] {
  const pc = p.words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.raw));
  const command = p.words[pc];
  if (pc !== 0 || !command || command.unknown || command.glob || p.redirects.length) return [];
  const name = program(command.text);
  const rest = p.words.slice(1);
  const made = (entries: [string, string][]) =>
    entries.flatMap(([text, does]) => {
      const e = readEntry(`bash: ${text}`);
      return "pattern" in e ? [{ ...e.pattern, entry: p.entry, does }] : [];
    });
  if (name === "rm") return made(deleting(rest));
  if (name === "git" && rest[0]?.text === "push") return made(pushing(rest.slice(1)));
  if (discardsAll(p)) return made(DISCARDING);
  if (name === "npm" && rest[0]?.text === "publish") return made(publishing(raw(rest.slice(1))));
  if (name === "curl") return made(sending(rest));
  if (name === "docker") return made(containers(rest));
  // terraform(1) `destroy -help`: "This command is a convenience alias for: terraform apply -destroy"
  if (name === "terraform" && rest[0]?.text === "destroy")
    return made([[`terraform apply -destroy ${raw(rest.slice(1))}`, "terraform apply -destroy is terraform destroy"]]);
  // git-update-ref(1): "With -d flag, it deletes the named <ref>"; a branch is refs/heads/NAME
  if (name === "git" && rest[0]?.text === "branch" && rest.slice(1).some((w) => /^-[^-]*[dD]|^--del/.test(w.text)))
    return made([["git update-ref -d *", "git update-ref -d deletes a branch's ref"]]);
  // `gh pr merge` is the REST call `PUT repos/OWNER/REPO/pulls/N/merge`, which `gh api` makes
  if (name === "gh" && rest[0]?.text === "pr" && rest[1]?.text === "merge")
    return made([["gh api * *pulls/*/merge *", "gh api …/pulls/N/merge merges a pull request"]]);
  if (name === "kubectl" && rest[0]?.text === "delete") return made(deletingResources(rest.slice(1)));
  return [];
}

/**
 * `rm [OPTIONS] OPERANDS`: what deletes files too. With `-r`/`-R`/`--recursive` in the entry, only
 * what deletes trees (`rm -rf *` lets `rm -f x` run, so it lets `unlink x` run too).
 */
function deleting(rest: Word[]): [string, string][] {
  const options = rest.filter(isOption);
  const recursive = options.some(recursiveOption);
  const operands = rest.filter((w) => !isOption(w) && w.text !== "--");
  const ops = operands.length ? raw(operands) : "*";
  const any = ops === "*";
  const out: [string, string][] = [
    // find(1): "-delete  Delete files or directories", depth-first, so a whole tree
    [`find ${ops} ${any ? "" : "* "}-delete*`, "find -delete removes the files it finds"],
    // git-clean(1): "Cleans the working tree by recursively removing files that are not under version control", given -f
    [`git clean --force ${any ? "*" : `* ${ops}`}`, "git clean -f removes untracked files"],
    // git-rm(1): "Remove files matching pathspec from the index, or from the working tree and the index"
    [`git rm ${raw(options)} ${any ? "*" : `* ${ops}`}`, "git rm removes files from the working tree"],
    // rsync(1): "--delete  delete extraneous files from the receiving side" (the last operand);
    // "--remove-source-files  sender removes synchronization-related files"
    [`rsync --delete* ${any ? "*" : `* ${ops}`}`, "rsync --delete removes files from the destination"],
    [`rsync --del ${any ? "*" : `* ${ops}`}`, "rsync --del removes files from the destination"],
    [`rsync --remove-source* ${any ? "*" : `${ops} *`}`, "rsync --remove-source-files removes the files it copies"],
  ];
  // tar(1): "--remove-files  Remove files from disk after adding them to the archive"; zip(1): "-m
  // --move … deletes the target directories/files after making the specified zip archive"
  out.push([`tar --remove-files ${any ? "*" : `* ${ops}`}`, "tar --remove-files removes what it archives"]);
  out.push(
    [`zip -m ${any ? "*" : `* ${ops}`}`, "zip -m removes what it archives"],
    [`zip --move ${any ? "*" : `* ${ops}`}`, "zip -m removes what it archives"],
  );
  // rimraf (npmjs.com/package/rimraf): "The UNIX command rm -rf for node", also run by npx
  out.push([`rimraf ${ops}`, "rimraf is rm -rf"]);
  // rm(1) asks before removing a write-protected file only "if standard input is a terminal", which
  // a command hey runs never has: rm without -f asks nothing and removes the same (`rm -r x` is `rm -rf x`)
  const unforced = withoutForce(options);
  if (unforced.length < options.length || unforced.some((w, i) => w !== options[i]))
    out.push([`rm ${raw(unforced)} ${ops}`, "rm asks nothing without a terminal on stdin (hey's commands have none), so it deletes as with -f"]);
  if (recursive) return out;
  return out.concat([
    // unlink(1): "Call the unlink function to remove the specified FILE"
    [`unlink ${ops}`, "unlink removes a file"],
    // rmdir(1): "Remove the DIRECTORY(ies), if they are empty"
    [`rmdir ${ops}`, "rmdir removes directories"],
    // shred(1): "Overwrite the specified FILE(s) repeatedly"; `-u` then removes it
    [`shred ${ops}`, "shred destroys a file's contents"],
    // truncate(1): "Shrink or extend the size of each FILE to the specified size" (`-s 0` empties it)
    [`truncate ${ops}`, "truncate can empty a file"],
    // mv(1) onto /dev/null: the file leaves its name, and nothing keeps it
    [`mv ${ops} /dev/null`, "mv onto /dev/null discards a file"],
    // cp(1) from /dev/null: the file is left empty
    [`cp /dev/null ${ops}`, "cp /dev/null empties a file"],
  ]);
}

/** rm's options as written less `-f`/`--force` (taken out of a cluster: `-rf` is `-r`); the same words when none is there. */
function withoutForce(options: Word[]): Word[] {
  return options.flatMap((w) => {
    if (/^--f(o(r(ce?)?)?)?$/.test(w.text)) return [];
    if (!/^-[^-]/.test(w.text) || !w.text.includes("f")) return [w];
    const rest = w.text.replaceAll("f", "");
    return rest === "-" ? [] : [{ ...w, text: rest, raw: rest }];
  });
}

/** `git push [OPTIONS] [ARGS]`: what updates a remote's refs too. */
function pushing(rest: Word[]): [string, string][] {
  const forced = rest.some((w) => isOption(w));
  return [
    // git-send-pack(1): "Push objects over Git protocol to another repository" (`git push` runs it)
    ["git send-pack *", "git send-pack is what git push runs"],
    // git-subtree(1) push: "does git push to push the result"; its options may come first (`git subtree -P src push origin main`)
    ["git subtree * push *", "git subtree push runs git push"],
    // git-http-push(1): "Push objects over HTTP/DAV to another repository"
    ["git http-push *", "git http-push pushes over HTTP/DAV"],
    // gh repo sync: "Sync destination repository from source repository … using a hard reset" with
    // --force; given a repository, the destination is that remote repository
    [forced ? "gh repo sync --force *" : "gh repo sync *", "gh repo sync updates a remote branch"],
  ];
}

/**
 * Programs that are another by a different name, read with that one's options: hub(1) "is a command
 * line tool that wraps git" (`hub push -f` is `git push -f`); podman ("alias docker=podman", its
 * docs) and nerdctl ("Docker-compatible CLI for containerd") take docker's commands; the
 * `docker-compose` program is `docker compose`; OpenTofu's `tofu` is terraform; OpenShift's `oc` is kubectl.
 */
const SAME_PROGRAM: Record<string, string[]> = {
  hub: ["git"],
  podman: ["docker"],
  nerdctl: ["docker"],
  "docker-compose": ["docker", "compose"],
  tofu: ["terraform"], // OpenTofu (opentofu.org: "a fork of Terraform"), the same commands
  // OpenShift's docs (usage-oc-kubectl): "The oc binary offers the same capabilities as the kubectl binary"
  oc: ["kubectl"],
};

/**
 * A deny entry naming a program by its other name (`oc delete *`, `podman run *`, `hub push *`) as
 * the program it is (`kubectl delete *`): that refuses the program by its own name too, as the
 * entry's own pattern, and brings that program's equivalents (compileRules adds both).
 */
export function sameEntries(p: Pattern): Pattern[] {
  const command = p.words[0];
  if (!command || command.unknown || command.glob || p.redirects.length) return [];
  // `Invoke-WebRequest -Method Post *` is `curl -X POST *`, and so refuses curl's, wget's, HTTPie's, gh api's and code's POST
  const curlish = webCmdletAsCurl(program(command.text), p.words.slice(1));
  const as = curlish ? ["curl"] : otherName(program(command.text));
  if (!as) return [];
  const e = readEntry(`bash: ${[...as, ...(curlish ?? p.words.slice(1)).map((w) => w.raw)].join(" ")}`);
  return "pattern" in e ? [{ ...e.pattern, entry: p.entry }] : [];
}

/** What SAME_PROGRAM says `name` is, looked up by its own keys only (`constructor` is a program's name too). */
const otherName = (name: string) => (Object.hasOwn(SAME_PROGRAM, name) ? SAME_PROGRAM[name] : undefined);

/** The segment as the program it is another name of (SAME_PROGRAM), or none. */
export function respelled(seg: Segment): Segment[] {
  const first = seg.words[0];
  const as = first && !first.unknown && !first.glob ? otherName(program(first.text)) : undefined;
  if (!as) return [];
  return [{ ...seg, words: [...as.map((text) => ({ ...first!, text, raw: text })), ...seg.words.slice(1)] }];
}

/**
 * `kubectl delete [ARGS]`: kubectl(1) `replace --force` ("immediately remove resources from API"),
 * `apply --prune` ("Automatically delete resource objects, that do not appear in the configs") and
 * `drain` ("evicts or deletes all pods"), with the entry's options (`-n prod`).
 */
function deletingResources(rest: Word[]): [string, string][] {
  const options: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (!isOption(rest[i]!)) continue;
    options.push(rest[i]!);
    const next = rest[i + 1];
    if (!rest[i]!.text.includes("=") && next && !isOption(next) && !next.glob) options.push(rest[++i]!);
  }
  const given = options.length ? `${raw(options)} *` : "*";
  return [
    [`kubectl replace --force ${given}`, "kubectl replace --force deletes and re-creates"],
    [`kubectl apply --prune ${given}`, "kubectl apply --prune deletes what the configs leave out"],
    [`kubectl drain ${given}`, "kubectl drain deletes a node's pods"],
  ];
}

/** `git reset --hard`, `git checkout -f`, `git switch -f`: what else throws away the working tree's changes (and discards.ts). */
const DISCARDING: [string, string][] = [
  // git-checkout(1): "-f, --force … This is used to throw away local changes"; with paths, "overwrite
  // the contents of the files that match the pathspec"
  ["git checkout --force *", "git checkout -f throws away local changes"],
  ["git checkout * .", "git checkout . overwrites every changed file"],
  ["git checkout * :/", "git checkout :/ overwrites every changed file"],
  // git-switch(1): "--discard-changes … Both the index and working tree are restored"; "-f, --force An alias for --discard-changes"
  ["git switch --force *", "git switch -f throws away local changes"],
  ["git switch --discard-changes *", "git switch --discard-changes throws away local changes"],
  // git-reset(1) "--hard": "Any changes to tracked files in the working tree since <commit> are discarded"
  ["git reset --hard *", "git reset --hard throws away local changes"],
];

/** `npm publish [ARGS]`: the other package managers' publish, and the release tools that run one (not a script: `npm run release` names nothing). */
function publishing(rest: string): [string, string][] {
  const args = rest || "*";
  return [
    // pnpm.io/cli/publish: "Publishes a package to the registry"
    [`pnpm publish ${args}`, "pnpm publish publishes to the registry"],
    // classic.yarnpkg.com/en/docs/cli/publish; yarnpkg.com/cli/npm/publish
    [`yarn publish ${args}`, "yarn publish publishes to the registry"],
    [`yarn npm publish ${args}`, "yarn npm publish publishes to the registry"],
    // bun.sh/docs/cli/publish: "Use bun publish to publish a package to the npm registry"
    [`bun publish ${args}`, "bun publish publishes to the registry"],
    // lerna.js.org/docs/features/version-and-publish: `lerna publish` publishes the changed packages to the registry
    ["lerna publish *", "lerna publish publishes packages"],
    // changesets' command-line docs (github.com/changesets/changesets): `changeset publish` publishes the changed packages to npm and tags them
    ["changeset publish *", "changeset publish runs npm publish"],
    // np (github.com/sindresorhus/np), "A better `npm publish`": it "Publishes the new version to npm"
    // (`np --preview` and `--no-publish` do not, and are refused too: the options are not read)
    ["np *", "np publishes to npm"],
    // release-it's npm docs: with a package.json, "release-it will let npm bump the version … and publish to the npm registry"
    ["release-it *", "release-it runs npm publish"],
    // semantic-release's npm plugin (github.com/semantic-release/npm), used by default: "Publish the package on the npm registry"
    ["semantic-release *", "semantic-release runs npm publish"],
  ];
}

/** Package runners: `npx lerna publish`, `pnpm exec changeset publish`, `yarn lerna publish` run the program named after them. */
const RUNNERS = new Set(["npx", "pnpx", "bunx", "pnpm", "yarn", "bun", "npm", "corepack"]);

/**
 * The segment as each program a package runner could run (its words from a program name on), or
 * none: `npx -y lerna publish` is read as `lerna publish` too, `npx lerna@8 publish` as well. Equivalents are matched on these as
 * well; `pnpm publish` itself is one of them, read at its own name.
 */
export function runnerTails(seg: Segment): Segment[] {
  const first = seg.words[0];
  if (!first || first.unknown || first.glob || !RUNNERS.has(program(first.text))) return [];
  const out: Segment[] = [];
  for (let i = 1; i < seg.words.length; i++) {
    const w = seg.words[i]!;
    if (w.unknown || w.glob || isOption(w)) continue;
    // `npx rimraf@5 dir` runs rimraf, `npx @changesets/cli@2 publish` changeset
    const bin = packageProgram(w.text);
    out.push({ ...seg, words: bin === w.text ? seg.words.slice(i) : [{ ...w, text: bin, raw: bin }, ...seg.words.slice(i + 1)] });
  }
  return out;
}

/** `curl -X METHOD`: curl's other ways to send that method (any case: methods.ts), and wget's, HTTPie's and gh api's. */
function sending(rest: Word[]): [string, string][] {
  const { method, spelled, kept } = entryMethod(rest);
  if (!method) return [];
  const args = raw(kept) || "*";
  const out: [string, string][] = [
    // curl(1): "-X, --request <method>"; wget(1): "--method=HTTP-Method"; http(1) (HTTPie): "http [METHOD] URL"
    [`curl --request ${method} ${args}`, `curl --request ${method} is -X ${method}`],
    [`wget --method ${method} ${args}`, `wget --method sends ${method}`],
    [`http ${method} ${args}`, `http (HTTPie) ${method} sends ${method}`],
    [`https ${method} ${args}`, `https (HTTPie) ${method} sends ${method}`],
    [`xh ${method} ${args}`, `xh ${method} sends ${method}`],
    // PowerShell's Invoke-WebRequest/Invoke-RestMethod `-Method` (any case and prefix: PowerShell binds it)
    [`Invoke-WebRequest -Method ${method} ${args}`, `Invoke-WebRequest -Method ${method} sends ${method}`],
    [`Invoke-RestMethod -Method ${method} ${args}`, `Invoke-RestMethod -Method ${method} sends ${method}`],
    ...(spelled === method ? [] : [[`curl -X ${method} ${args}`, `curl -X ${method} is -X ${spelled}`] as [string, string]]),
    ...ghSending(method, kept),
  ];
  if (method === "POST" || method === "PUT") out.push([`curl -T ${args}`, "curl -T uploads (PUT)"], [`curl --upload-file ${args}`, "curl -T uploads (PUT)"]);
  if (method !== "POST") return out;
  return out.concat([
    // curl(1): -d/--data*: "Sends the specified data in a POST request"; -F/--form: "emulate a filled-in
    // form … POST"; --json: "Sends the specified JSON data in a POST request"
    [`curl -d ${args}`, "curl -d sends a POST"],
    [`curl --data* ${args}`, "curl --data sends a POST"],
    [`curl -F ${args}`, "curl -F sends a POST"],
    [`curl --form* ${args}`, "curl --form sends a POST"],
    [`curl --json ${args}`, "curl --json sends a POST"],
    // curl(1): "-K, --config <file>  Specify a text file to read curl arguments from"; wget(1): "-e
    // command … Execute command as if it were a part of .wgetrc" (`post_data = x`): either may send a POST
    [`curl -K ${args}`, "curl -K reads its options, a POST's among them, from a file"],
    [`curl --config ${args}`, "curl -K reads its options, a POST's among them, from a file"],
    [`wget -e ${args}`, "wget -e may set post_data"],
    [`wget --execute ${args}`, "wget -e may set post_data"],
    // wget(1): "--post-data=string --post-file=file  Use POST as the method for all HTTP requests"
    [`wget --post-data ${args}`, "wget --post-data sends a POST"],
    [`wget --post-file ${args}`, "wget --post-file sends a POST"],
    // http(1): "-f, --form  Data items from the command line are serialized as form fields" (a POST)
    ...["http", "https"].flatMap((h): [string, string][] => [
      [`${h} --form ${args}`, `${h} --form sends a POST`],
      [`${h} -f ${args}`, `${h} --form sends a POST`],
    ]),
  ]);
}

/**
 * The names these languages' libraries give deleting a file: Python's os.remove/unlink/rmdir/
 * removedirs, shutil.rmtree, pathlib's unlink/rmdir; Perl's unlink, rmdir, File::Path rmtree/
 * remove_tree; Node's fs.rm/rmSync/unlink/unlinkSync/rmdir/rmdirSync (and rimraf); Deno.remove;
 * Ruby's File.delete/unlink, FileUtils.rm/rm_f/rm_r/rm_rf/remove_dir/remove_entry; PHP's unlink/rmdir;
 * truncation (os.truncate, fs.truncateSync, File.truncate).
 */
const DELETES =
  /\b(unlink(Sync)?|rmdir(Sync)?|rmSync|remove|removedirs|rmtree|rm_rf?|rm_f|remove_(dir|entry|entry_secure|tree|file)|rimraf|truncate(Sync)?|File\.delete)\b|\.rm\s*\(/;
/** Of those, the ones that delete a whole tree, or are told to (`fs.rmSync(x, { recursive: true })`, not `fs.mkdirSync(x, { recursive: true })`). */
const DELETES_TREES = /\b(removedirs|rmtree|rm_rf?|remove_(dir|entry|entry_secure|tree)|rimraf)\b|\b(rm|rmSync|rmdir|rmdirSync|remove)\s*\([^)]*\brecursive\b/;

/**
 * Why a segment does what deny entry `p` (not an equivalent) refuses without a command line that
 * names it: code that deletes (deletesInCode), HTTPie or gh api sending a body (impliedPost, ghImpliedPost),
 * changes to some files thrown away (discardsFiles), a file emptied (emptiesNamed; `caseless`: file
 * names ignore case; `disk`: what the files are now, on-disk.ts). undefined: none.
 */
export function doesOtherwise(seg: Segment, p: Pattern, caseless = false, disk?: Disk): string | undefined {
  return (
    deletesInCode(seg, p) ??
    sendsInCode(seg, p) ??
    cleansUnforced(seg, p) ??
    impliedPost(seg, p) ??
    ghImpliedPost(seg, p) ??
    discardsFiles(seg, p, disk) ??
    emptiesNamed(seg, p, caseless, disk)
  );
}

/**
 * Under an `rm` entry that names no operands, `git clean` without `-f` and without `-n`/`--dry-run`:
 * git-config(1) "clean.requireForce … defaults to true": set to false, in a file hey does not read,
 * git clean deletes without `-f` (with it, the equivalent `git clean --force` refuses it already).
 */
function cleansUnforced(seg: Segment, p: Pattern): string | undefined {
  const command = p.words[0];
  if (!command || command.unknown || program(command.text) !== "rm") return undefined;
  if (p.words.slice(1).some((w) => !isOption(w) && !(w.glob && w.raw === "*") && w.text !== "--")) return undefined;
  const first = seg.words[0];
  if (!first || first.unknown || first.glob || program(first.text) !== "git") return undefined;
  const sub = readGit(seg.words)?.sub;
  if (sub === undefined || seg.words[sub]!.text !== "clean") return undefined;
  const args = seg.words.slice(sub + 1);
  const end = args.findIndex((w) => w.text === "--");
  // `-n`/`--dry-run` deletes nothing; `-f`/`--force` is the equivalent's to refuse
  if ((end < 0 ? args : args.slice(0, end)).some((w) => !w.unknown && /^(-[dfiqxX]*[nf]|--[df])/.test(w.text))) return undefined;
  return "git clean deletes untracked files without `-f` where clean.requireForce is false";
}

/**
 * Under a deny entry naming curl's `-X POST`, HTTPie (`http`, `https`) or xh given no method but a
 * body: http(1) "METHOD … defaults to GET (with no request data) or POST (with request data)";
 * request data is a `field=value`, `field:=json` or `field@file` item (not `==`, a query
 * parameter, nor `Header:value`), or stdin from a pipe.
 */
function impliedPost(seg: Segment, p: Pattern): string | undefined {
  const command = p.words[0];
  if (!command || command.unknown || program(command.text) !== "curl") return undefined;
  if (entryMethod(p.words.slice(1)).method !== "POST") return undefined;
  const first = seg.words[0];
  if (!first || first.unknown || first.glob || !/^(https?|xh|xhs)$/.test(program(first.text))) return undefined;
  const items = seg.words.slice(1).filter((w) => !isOption(w));
  if (items.length && /^[A-Z]+$/.test(items[0]!.text)) return undefined; // a method, matched as an equivalent
  // the first is the URL, whose query may hold `=`
  const body = items.slice(1).find((w) => w.unknown || /^[^=:@]*(=(?!=)|:=|@)/.test(w.text));
  if (body) return `\`${body.raw}\` is request data, which HTTPie sends as a POST`;
  return seg.piped ? "it reads request data from a pipe, which HTTPie sends as a POST" : undefined;
}

/**
 * Why a segment deletes files as an `rm` deny entry `p` (not an equivalent) refuses without running
 * a program of its own: an interpreter given code that calls its library's delete (`python3 -c
 * 'os.remove(…)'`, `perl -e 'unlink …'`, `node -e 'fs.rmSync(…)'`), as an argument or on stdin;
 * under an entry with `-r`, only a call that deletes trees. undefined: none.
 */
function deletesInCode(seg: Segment, p: Pattern): string | undefined {
  const command = p.words[0];
  if (!command || command.unknown || command.glob || program(command.text) !== "rm" || p.redirects.length) return undefined;
  const recursive = p.words.slice(1).some((w) => isOption(w) && recursiveOption(w));
  const first = seg.words[0];
  if (!first || first.unknown || first.glob || !INTERPRETER.test(program(first.text))) return undefined;
  const found = code(seg)
    .map((v) => (recursive ? DELETES_TREES : DELETES).exec(v)?.[0])
    .find(Boolean);
  return found ? `its code calls \`${found}\`` : undefined;
}
