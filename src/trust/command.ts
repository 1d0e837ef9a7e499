// `hey trust [--revoke] [DIR]` (issue 26): see and change whether a project's files load — its
// `.hey/config.toml`, skills and `.mcp.json` — without editing trust.json. It names the project
// (DIR's project root), what it has, what its files would run or redirect and its `.hey/skills` as
// the start's trust question shows them (a yes approves them as shown); trusting asks at a
// terminal, and never under the mark hey gives the agent's commands (agent-mark.ts), so a command the
// agent runs (which has no terminal, unless it opens a pseudo-terminal) cannot trust a project by itself.
// `--revoke` only takes away, so it asks nothing. Exit 0 done, 2 a bad command line or no
// terminal to ask at, 130 cancelled.
import { resolve } from "node:path";
import { EXIT } from "../cli.ts";
import { places, projectRoot, type Places } from "../fs/places.ts";
import { gatedResources, realDir } from "../fs/root-probe.ts";
import { errorText } from "../kernel/errors.ts";
import { fitted, isTty, writer } from "../ui/term.ts";
import { alreadyTrustedNotice, effectsBlock, HOME_NO_PROJECT, nothingNewNotice, readAnswer, trustedNotice, untouchedTrustNotice } from "./policy.ts";
import { readApprovalState } from "./approve.ts";
import { trustSkillsBlock } from "./instruction-approval.ts";
import { skillsForTrust } from "./instructions.ts";
import { recordShownSkills } from "./instruction-yes.ts";
import { agentCommand } from "../agent-mark.ts";
import { effectLines } from "./effects.ts";
import { isTrusted, projectLabel, readProjectFiles, trustProject } from "./store.ts";

export const TRUST_USAGE = `usage: hey trust [DIR]            trust the project DIR is in (default: here), after showing what it would run and its skills
       hey trust --revoke [DIR]   stop trusting it
  The project is the nearest directory up to the git root whose .hey/ holds config.toml or skills/,
  else the git root, else the nearest holding .hey/, else DIR (as hey --help says). Trusted, its .hey/config.toml,
  .hey/skills, .agents/skills, .claude/skills and .mcp.json load (changes to its MCP servers are still asked about).
`;

/**
 * Whether `hey trust …` is this command (else it is a prompt, `hey trust me on this`): flags it
 * knows, and at most one directory — one that exists, or a word written as a path (`../x`, `~/x`,
 * `/x`, or any word after `--revoke`), which the command then refuses when it is none — and at most
 * one word after it, which the command refuses.
 */
export function isTrustCommand(args: readonly string[], isDir: (path: string) => boolean): boolean {
  const words = args.filter((a) => !["--revoke", "--help", "-h"].includes(a));
  // `hey trust --approve`: a flag it does not take is refused by the command, with its usage
  if (words.length === 0 || (words.length === 1 && words[0]!.startsWith("-"))) return true;
  const dir = isDir(words[0]!) || args.includes("--revoke") || /^[.~]|\//.test(words[0]!);
  // `hey trust . extra`: one word after the directory is a slip the command refuses; more are a prompt
  if (words.length === 2) return dir;
  return words.length === 1 && (dir || verbAdvice(words[0]!) !== undefined);
}

/**
 * What `hey trust WORD` (no directory of that name here) was meant as, when WORD is a verb other
 * tools' trust commands take (`list`, `revoke`, `yes`…): advice, for the command to refuse it with
 * rather than send "trust list" to the model. Undefined for other words.
 */
function verbAdvice(word: string, trustFile = "trust.json"): string | undefined {
  const verb = word.toLowerCase();
  if (["list", "ls", "show", "status", "info", "get", "check"].includes(verb))
    return `hey trust takes a directory, not ${word}: hey trust [DIR] shows whether DIR's project is trusted and what it would run (a no changes nothing); every answer is recorded in ${trustFile}`;
  if (["revoke", "remove", "rm", "delete", "untrust", "forget", "no", "off", "deny"].includes(verb))
    return `did you mean hey trust --revoke [DIR]? (it stops trusting DIR's project, default here)`;
  if (["yes", "y", "add", "on", "allow", "always", "set", "this", "here"].includes(verb))
    return `hey trust with no word trusts the project here, after showing what it would run; hey trust DIR another's`;
  return undefined;
}

export async function trustCommand(args: string[], here: Places, probe: Parameters<typeof projectRoot>[2]): Promise<number> {
  const out = writer(1);
  const err = writer(2);
  const say = (line: string) => out.write(`${fitted(1, line)}\n`); // at spaces, never mid-word, at a terminal
  if (args.includes("--help") || args.includes("-h")) {
    out.write(TRUST_USAGE);
    return EXIT.ok;
  }
  const flag = args.find((a) => a.startsWith("-") && a !== "--revoke");
  if (flag !== undefined) {
    err.write(`hey trust: unknown flag ${flag}\n${TRUST_USAGE}`);
    return EXIT.usage;
  }
  const revoke = args.includes("--revoke");
  const [dir, stray] = args.filter((a) => a !== "--revoke");
  if (stray !== undefined) {
    err.write(`hey trust: unknown argument ${JSON.stringify(stray)} after ${dir} (to send it as a prompt: hey -p "trust ${args.join(" ")}")\n${TRUST_USAGE}`);
    return EXIT.usage;
  }
  // named as the file system does, as here.cwd and here.home are: a DIR through a link finds the project hey started there finds
  const cwd = dir === undefined ? here.cwd : realDir(resolve(here.cwd, dir.replace(/^~(?=\/|$)/, here.home)));
  const verb = dir === undefined || revoke || probe.isDir(cwd) ? undefined : verbAdvice(dir, here.trustFile);
  if (verb !== undefined) {
    err.write(`hey trust ${dir}: ${verb}\n`);
    return EXIT.usage;
  }
  if (dir !== undefined && !probe.isDir(cwd)) {
    err.write(`hey trust: ${dir} is not a directory (hey trust [--revoke] [DIR]: the project DIR is in)\n`);
    return EXIT.usage;
  }
  const at = dir === undefined ? here : places(process.env, here.home, cwd, process.platform, projectRoot(cwd, here.home, probe));
  const project = projectLabel(at.root);
  const resources = gatedResources(at.root);
  say(`project: ${project}${at.root !== cwd ? ` (the project of ${cwd})` : ""}`);
  say(resources.length ? `it has ${resources.join(", ")}` : "it has no .hey/config.toml, skills or .mcp.json yet");
  if (!revoke && at.root === at.home) {
    err.write(`hey: hey trust recorded nothing: ${HOME_NO_PROJECT}\n`);
    return EXIT.usage;
  }
  try {
    if (revoke) {
      await trustProject(at, false);
      say(trustedNotice(project, false, resources, at.trustFile, false));
      return EXIT.ok;
    }
    const { files, problems } = readProjectFiles(at); // read once: what a yes approves is what was shown
    for (const p of problems) err.write(`hey: ${p}\n`);
    const warn = (message: string) => err.write(`hey: ${message}\n`);
    let trusted = false;
    const approvals = readApprovalState(at.approvalsFile, warn);
    try {
      trusted = isTrusted(at, approvals.record);
    } catch (e) {
      warn(`${at.trustFile}: ${errorText(e)}; projects count as not trusted`);
    }
    const effects = effectLines(files);
    const skills = skillsForTrust(approvals, at); // read once, as the files are: a yes approves them as shown
    // nothing run, no skill new or changed: no question, as /trust asks none
    if (trusted && effects.length === 0 && !skills.some((s) => s.was !== "same" && s.leftOut === undefined)) {
      say(nothingNewNotice(project, skills.length > 0, false));
      return EXIT.ok;
    }
    if (trusted) say(alreadyTrustedNotice(project));
    if (effects.length) out.write(`${effectsBlock(effects).trimStart()}\n`);
    const block = trustSkillsBlock(skills, at.root);
    if (block) out.write(`${block.trimStart()}\n`);
    const agent = agentCommand(process.env);
    if (agent) {
      err.write(`hey: ${agent}: run hey trust yourself\n`);
      return EXIT.usage;
    }
    if (!isTty(0)) {
      err.write(
        "hey: hey trust asks at a terminal, and stdin is not one: run it yourself in a terminal (the agent's commands have none, so it cannot trust a project by itself); --approve trusts a project for one run\n",
      );
      return EXIT.usage;
    }
    const { askLine } = await import("./ask.ts");
    const typed = await askLine("Trust this project? (y/N) ");
    if (typed === undefined) return EXIT.interrupted;
    if (readAnswer(typed) !== "yes") {
      say(untouchedTrustNotice(project, trusted, false));
      return EXIT.ok;
    }
    await trustProject(at, true, files);
    await recordShownSkills(at.approvalsFile, skills); // as the start's trust question's yes: the next start asks no second question of them
    say(trustedNotice(project, true, resources, at.trustFile, false));
    return EXIT.ok;
  } catch (e) {
    err.write(`hey: could not record it: ${errorText(e)}\n`);
    return EXIT.runtime;
  }
}
