// The programs git runs to reach a remote (x5 #6; gitremote-helpers(7), git-remote-ext(1)): a URL
// `ext::CMD ARGS` runs CMD (when `protocol.ext.allow` lets it), `NAME::ADDRESS` and
// `remote.X.vcs=NAME` run the helper `git remote-NAME` (`git-remote-NAME` from git's exec path or
// PATH; a NAME with a `/` is a path, `remote.x.vcs=/x` runs `./git-remote-/x`), and `-c
// url.BASE.insteadOf=…` or `-c remote.X.url=…` give such a URL to a command that names none. Each is
// judged as the command it runs, under every list (git-texts.ts). `-c protocol.allow` and `-c
// protocol.ext.allow` set to anything but `never` let git run the command of an `ext::` URL it
// reads where the rules cannot see it (a remote's URL in a config, a submodule's in .gitmodules):
// refused under a deny or an allow list, whatever else the list holds. Pure.
import { singleQuoted } from "../kernel/tool-args.ts";
import { known, type Word } from "./shell-model.ts";

/** A command git runs from a URL or a setting, as git-texts.ts judges it (GitText's shape). */
type Run = { text: string; from: string; word?: string };

/** Keys that choose the program git reaches a remote with, or the URL it reaches (with `remote.*.url`, read apart: QUIET's otherwise). */
export const TRANSPORT_KEYS = /^(protocol\.([^.]+\.)?allow|remote\..+\.vcs|url\..+\.(push)?insteadof)$/i;

/** Subcommands that take a remote's URL as an operand (or, archive, as `--remote=URL`). */
const URL_TAKERS = new Set(["clone", "fetch", "pull", "push", "ls-remote", "archive", "submodule"]);

/** A URL naming its transport helper (`NAME::ADDRESS`, NAME as git reads a scheme: a letter or digit, then those and `+-.`): NAME and ADDRESS. */
const HELPER_URL = /^([A-Za-z0-9][A-Za-z0-9+.-]*)::([\s\S]*)$/;

/**
 * What `ext::` runs for ADDRESS (git-remote-ext(1)): its words split at spaces, `% ` a space, `%%` a
 * `%`, `%s`/`%S` the service (`upload-pack`, `git-upload-pack`), a word starting `%G` or `%V` given
 * to git, not the command; any other `%` git refuses, and so does hey.
 */
function extCommand(address: string): string[] | { unknown: string } {
  const words: string[] = [];
  for (const part of address.split(/(?<!%) +/).filter(Boolean)) {
    if (/^%[GV]/.test(part)) continue;
    let out = "";
    for (let i = 0; i < part.length; i++) {
      if (part[i] !== "%") out += part[i];
      else {
        const c = part[++i];
        if (c === " " || c === "%") out += c;
        else if (c === "s" || c === "S") out += c === "s" ? "upload-pack" : "git-upload-pack";
        else return { unknown: `gives git the URL \`ext::${address}\`, whose \`%${c ?? ""}\` hey does not read` };
      }
    }
    words.push(out);
  }
  return words;
}

/** The command git runs for `helper` (a URL's NAME or remote.X.vcs): a path as written, else git's `remote-NAME`. */
const helperCommand = (helper: string): string => (/[\\/]/.test(helper) ? singleQuoted(`git-remote-${helper}`) : `git ${singleQuoted(`remote-${helper}`)}`);

/** The command a URL makes git run, or undefined for one git reaches by itself (`https://…`, `git@host:x`, a path). */
export function urlCommand(url: string, from: string, word?: string): Run | { unknown: string } | undefined {
  const m = HELPER_URL.exec(url);
  if (!m) return undefined;
  const [, helper, address] = m as unknown as [string, string, string];
  // git compares transport names exactly, but a file system that ignores case finds git-remote-ext for `EXT::`
  if (helper.toLowerCase() === "ext") {
    const argv = extCommand(address);
    if (!Array.isArray(argv)) return argv;
    if (!argv.length) return undefined; // git runs nothing: its helper says the command is empty
    return { text: argv.map(singleQuoted).join(" "), from: `${from} an \`ext::\` URL, whose command git runs`, ...(word ? { word } : {}) };
  }
  return { text: helperCommand(helper), from: `${from} a \`${helper}::\` URL, for which git runs its helper`, ...(word ? { word } : {}) };
}

/**
 * What `-c KEY=VALUE` for a transport makes git run (`key` as written: url.BASE keeps its case), or
 * why it cannot be verified; "none" for a transport's key whose value runs nothing (git's own
 * protocols, `never`, a rewrite to a URL git reaches by itself); undefined for another key.
 * `control`: only hey's and git's own files are guarded (an allow list that lets every command
 * run), so a protocol may be allowed.
 */
export function transportSetting(key: string, value: string, control: boolean): Run | { unknown: string } | "none" | undefined {
  const lower = key.toLowerCase();
  const from = `sets git's ${lower}, which gives git`;
  const protocol = /^protocol\.(?:([^.]+)\.)?allow$/.exec(lower);
  if (protocol) {
    if (control || /^never$/i.test(value) || (protocol[1] !== undefined && protocol[1] !== "ext")) return "none";
    return {
      unknown: `sets git's ${lower} to \`${value}\`: git then runs the command of any \`ext::\` URL it reads, also one the rules cannot see (a remote's in a config, a submodule's in .gitmodules)`,
    };
  }
  // `remote.x.vcs=ext`: git runs the remote's URL, wherever it is set, as an `ext::` command
  if (/^remote\..+\.vcs$/.test(lower) && value.toLowerCase() === "ext")
    return { unknown: `sets git's ${lower} to \`${value}\`: git runs the remote's URL, wherever it is set, as a command` };
  if (/^remote\..+\.vcs$/.test(lower))
    return value ? { text: helperCommand(value), from: `sets git's ${lower}, for which git runs the helper \`git-remote-${value}\`` } : "none";
  const base = /^url\.([\s\S]+)\.(push)?insteadof$/i.exec(key)?.[1];
  if (base !== undefined) return urlCommand(base, from) ?? "none";
  if (/^remote\..+\.(push)?url$/.test(lower)) return urlCommand(value, from) ?? "none";
  return undefined;
}

/** The commands the URLs among a subcommand's words make git run (`git ls-remote 'ext::sh -c …'`, `git fetch hg::https://…`), or why one cannot be verified. */
export function urlCommands(sub: string, args: Word[]): Run[] | { unknown: string } {
  if (!URL_TAKERS.has(sub)) return [];
  const out: Run[] = [];
  for (const w of args) {
    if (!known(w)) continue; // a URL known only at run time reaches git's own transports or a helper the agent cannot write (PATH is guarded)
    const url = w.text.startsWith("-") ? /^--remote=([\s\S]*)$/.exec(w.text)?.[1] : w.text;
    const run = url === undefined ? undefined : urlCommand(url, `gives git ${sub}`, w.raw);
    if (run && "unknown" in run) return run;
    if (run) out.push(run);
  }
  return out;
}
