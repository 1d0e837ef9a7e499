// Shell redirections that reach hey's control files by another name: a project holding links to
// them (as a cloned repository can), a hard link, a dangling link to a control file not created
// yet, `..` after a link, a `cd` first, a target named at run time, a command run in another
// directory. Each template writes the payload text; `{W}` is where the write goes. The fixture
// builds the home and the project; control-links.test.ts pins the reasons, and
// control-differential.test.ts runs the corpus under real dash and bash.
import { linkSync, mkdirSync, readFileSync, existsSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { places } from "../../src/fs/places.ts";

export const PAYLOAD_TEXT = "PWNED";

/** A home with hey's files and a project holding links to them; returns the project, the home and the control files. */
export function controlFixture(root: string): { home: string; project: string; controls: string[] } {
  const home = join(root, "home");
  const project = join(root, "project");
  const here = places({}, home, project, "linux");
  const controls = controlFiles(here, undefined);
  for (const dir of [here.configDir, here.stateDir, join(project, ".hey"), join(project, "sub")]) mkdirSync(dir, { recursive: true });
  writeFileSync(here.userConfig, '[permission]\ndeny = ["bash: rm *"]\n');
  writeFileSync(here.trustFile, '{"version": 1, "projects": {}}\n');
  writeFileSync(here.approvalsFile, "{}\n");
  // the project's .hey/config.toml does not exist: a dangling link to it creates it
  symlinkSync(here.userConfig, join(project, "cfglink"));
  symlinkSync(here.approvalsFile, join(project, "apl"));
  symlinkSync(here.configDir, join(project, "dirlink"));
  symlinkSync("../home/.config/hey/trust.json", join(project, "rel"));
  symlinkSync(here.projectConfig, join(project, "dangling"));
  symlinkSync(here.userConfig, join(project, "sub", "cfglink"));
  linkSync(here.userConfig, join(project, "hard"));
  return { home, project, controls };
}

/** Each control file's content, or null when it does not exist. */
export function snapshot(controls: string[]): (string | null)[] {
  return controls.map((c) => (existsSync(c) ? readFileSync(c, "utf8") : null));
}

/** By class: the ways to the file. `{W}` is `echo PWNED`. */
export const TEMPLATES: Record<string, string[]> = {
  link: [
    "{W} > cfglink",
    "{W} >> apl",
    "{W} >> dirlink/config.toml",
    "{W} > rel",
    "{W} >| cfglink",
    "{W} 1<>cfglink",
    "{W} 2>cfglink",
    "{W} &>cfglink",
    "{W} | cat > apl",
    "cat <<EOF > cfglink\nPWNED\nEOF",
  ],
  hard: ["{W} > hard", "{W} >> hard"],
  dangling: ["{W} > dangling", "{W} >> dangling"],
  dotdot: ["{W} > sub/../cfglink", "{W} > dirlink/../hey/config.toml", "mkdir -p new && {W} > new/../cfglink", "{W} > ./sub/./cfglink"],
  cd: [
    "cd sub && {W} > cfglink",
    "cd sub; {W} > cfglink",
    "(cd sub; {W} > cfglink)",
    "cd dirlink && {W} > config.toml",
    "cd -P dirlink/.. && {W} > hey/config.toml",
    "pushd sub > /dev/null && {W} > cfglink",
    "pushd -- sub > /dev/null && {W} > cfglink",
    "D=sub; cd $D && {W} > cfglink",
    "cd ~/.config/hey && {W} > config.toml",
    "sh -c 'cd sub && {W} > cfglink'",
  ],
  runtime: [
    "{W} > cfg*",
    "{W} > c?glink",
    "{W} > [c]fglink",
    "F=cfglink; {W} > $F",
    "{W} > $(echo cfglink)",
    '{W} > "$PWD/cfglink"',
    "{W} > ~/.config/hey/*.toml",
  ],
  elsewhere: ["env -C sub sh -c '{W} > cfglink'", "env --chdir=sub sh -c '{W} > cfglink'", "find sub -name cfglink -execdir sh -c '{W} > cfglink' \\;"],
};

/** Commands that write ordinary files the same ways: they must stay allowed. */
export const USABLE = [
  "{W} > notes.txt",
  "cd sub && {W} > new.txt",
  "{W} > /dev/null",
  "{W} 2>&1",
  "mkdir -p out && {W} > out/../notes.txt",
  "{W} | cat > sub/x.txt",
];

/** Where a template may stand in a script. */
export const CONTEXTS = ["{T}", "true && {T}", "{ {T}; }", "if true; then {T}; fi", "f() { {T}; }; f"];

export interface ControlCase {
  cls: string;
  command: string;
  /** the template as written, in no context */
  first: boolean;
}

export function generateControlCorpus(): ControlCase[] {
  const out: ControlCase[] = [];
  for (const [cls, templates] of Object.entries({ ...TEMPLATES, usable: USABLE }))
    for (const template of templates)
      for (const context of CONTEXTS) {
        if (template.includes("<<EOF") && context !== "{T}") continue; // a heredoc body stays at the start of its lines
        out.push({ cls, command: context.replace("{T}", template.replaceAll("{W}", `echo ${PAYLOAD_TEXT}`)), first: context === "{T}" });
      }
  return out;
}
