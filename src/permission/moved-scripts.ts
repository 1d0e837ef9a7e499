// Under an allow list, the package.json scripts a command runs from another package.json than the
// one where it runs (x2 #13): `bash: npm run test *` lets `npm run test` run the project's test
// script, but `npm run test --prefix=src` (`-C src`, pnpm's `--dir`, yarn's and bun's `--cwd`,
// `--workspace`, `--filter`, `-r`) runs src/package.json's, which the agent may have written under
// `write_file: src/**`. Those scripts are judged as the command lines they are, each from its
// package.json's directory; the ones the same command without those options runs stay the
// entry's. A directory known only at run time: "cannot verify" (run-scripts.ts). Pure.
import { type ControlFiles, decided } from "./control-files.ts";
import type { GitText } from "./git-texts.ts";
import { allowMatch, isStar, type Pattern, program } from "./match.ts";
import type { Disk } from "./on-disk.ts";
import { DIR_OPTION, scriptsRun, WORKSPACE } from "./run-scripts.ts";
import type { Segment, Word } from "./shell-model.ts";

/** The allow entries that match `seg`, and the scripts to judge as commands (movedScripts), or why they cannot be read. */
export function packageMatches(
  seg: Segment,
  allow: Pattern[],
  control: ControlFiles | undefined,
  segments: Segment[],
): { by: Pattern[]; judge: GitText[] | { unknown: string } } {
  const by = allow.filter((p) => allowMatch(seg, p));
  // an entry that spells the options out, values too (`bash: npm run test --prefix=web`), allows that package.json's scripts
  const plain = new Set(withoutMoves(seg.words));
  const moves = seg.words.filter((w) => !plain.has(w)).map((w) => w.raw);
  const spelled = by.some((p) => moves.every((m) => p.words.some((w) => !isStar(w) && w.raw === m)));
  return { by, judge: by.length && !spelled ? movedScripts(seg, control, segments) : [] };
}

/** The scripts `seg` runs only because an option moves it to another package.json (see above), or why they cannot be read. */
export function movedScripts(seg: Segment, control: ControlFiles | undefined, segments: Segment[]): GitText[] | { unknown: string } {
  const disk: Disk = { control, segments };
  const plain = withoutMoves(seg.words);
  if (plain.length === seg.words.length) return [];
  const run = scriptsRun(seg, disk);
  if ("unknown" in run) return run;
  const before = scriptsRun({ ...seg, words: plain }, disk);
  const same = (a: { name: string; text: string; dir: string }) =>
    !("unknown" in before) && before.some((b) => b.name === a.name && b.text === a.text && b.dir === a.dir);
  // named from where the command runs when below it (`src/package.json`)
  const cwd = control?.cwd?.replace(/[\\/]?$/, "/");
  const file = (dir: string) => {
    const path = `${dir.replace(/[\\/]$/, "")}/package.json`;
    return cwd && path.startsWith(cwd) ? path.slice(cwd.length) : path;
  };
  return (
    run
      .filter((s) => !same(s))
      // run in its package.json's directory: a `cd` there first, which the checks follow as any `cd`
      .map((s) => ({ text: `cd '${s.dir.replace(/'/g, "'\\''")}'\n${s.text}`, from: `runs ${s.file ?? file(s.dir)}'s script \`${s.name}\`` }))
  );
}

/** The words without the options that move a package manager to another package.json, and their values (before a `--`). */
function withoutMoves(words: Word[]): Word[] {
  const out: Word[] = [];
  const npm = !!words[0] && decided(words[0]) && ["npm", "npx"].includes(program(words[0].text)); // pnpm's `-w` is its workspace's root, taking no value
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (decided(w) && w.text === "--") return [...out, ...words.slice(i)];
    if (i > 0 && decided(w) && (DIR_OPTION.test(w.text) || /^-C./.test(w.text) || WORKSPACE.test(w.text))) {
      // a value in the next word: `--prefix src`, `-C src`, `--workspace web`, `--filter web`, npm's `-w web`
      if (!w.text.includes("=") && (/^(--prefix|-C|--cwd|--dir|--workspace|--filter|-F|--filter-prod)$/.test(w.text) || (w.text === "-w" && npm))) i++;
      continue;
    }
    out.push(w);
  }
  return out;
}
