// Under an allow list, the package.json scripts a command runs from a package.json outside the
// project (x2 #13, r1 #5, #6, #13): `bash: npm run test *` lets `npm run test` run the project's
// test script, and so the scripts of the project's own packages however the command gets there —
// `cd web && npm run test`, `npm run test -w web`, `--workspaces`, `pnpm -r test`, `pnpm --filter
// web test`, `yarn --cwd web test`, `--prefix=src` — since the project is what the entry was
// written for, and a package.json the agent may write in it (`write_file: src/**`) is the
// documented limit `edit package.json` then `bash: npm test` already is. A package.json outside it
// (`--prefix=/tmp/x`, `--prefix ../other`, `-C ~`, `cd /tmp/x && npm test`) is not the user's
// project: its scripts are judged as the command lines they are, each from its package.json's
// directory. The project: where hey started and below, the nearest package.json above it, a
// workspace's root above it that declares a package holding it, and the packages those roots
// declare, each where its links lead. A directory known only at run time: "cannot verify"
// (run-scripts.ts). Pure: the caller's `packageScripts`, `workspacePackages` and `realDir` read the disk.
import { type ControlFiles, decided, type Flavour, onWindows, POSIX, WINDOWS } from "./control-files.ts";
import type { GitText } from "./git-texts.ts";
import { allowMatch, isStar, type Pattern, program } from "./match.ts";
import type { Disk } from "./on-disk.ts";
import { DIR_OPTION, moveSpelling, WORKSPACE } from "./manager-options.ts";
import { scriptsRun } from "./run-scripts.ts";
import type { Segment, Word } from "./shell-model.ts";

/** The allow entries that match `seg`, and the scripts to judge as commands (movedScripts), or why they cannot be read. */
export function packageMatches(
  seg: Segment,
  allow: Pattern[],
  control: ControlFiles | undefined,
  segments: Segment[],
): { by: Pattern[]; judge: GitText[] | { unknown: string } } {
  const by = allow.filter((p) => allowMatch(seg, p));
  // an entry that spells the options out, values too (`bash: npm run test --prefix=../lib`), allows that package.json's scripts
  const plain = new Set(withoutMoves(seg.words));
  const moves = seg.words.filter((w) => !plain.has(w)).map((w) => w.raw);
  const spelled = moves.length > 0 && by.some((p) => moves.every((m) => p.words.some((w) => !isStar(w) && w.raw === m)));
  return { by, judge: by.length && !spelled ? movedScripts(seg, control, segments) : [] };
}

/** The scripts `seg` runs from a package.json outside the project (see above), or why they cannot be read. */
export function movedScripts(seg: Segment, control: ControlFiles | undefined, segments: Segment[]): GitText[] | { unknown: string } {
  if (!control?.cwd || !control.packageScripts) return [];
  const disk: Disk = { control, segments };
  const moved = withoutMoves(seg.words).length !== seg.words.length;
  const run = scriptsRun(seg, disk);
  // a directory only the run knows: "cannot verify" where an option moves the command; after a `cd "$D"`, as before this check
  if ("unknown" in run) return moved ? run : [];
  if (!run.length) return [];
  const own = projectOf(control);
  // named from where the command runs when below it (`src/package.json`)
  const cwd = control.cwd.replace(/[\\/]?$/, "/");
  const file = (dir: string) => {
    const path = `${dir.replace(/[\\/]$/, "")}/package.json`;
    return path.startsWith(cwd) ? path.slice(cwd.length) : path;
  };
  return (
    run
      .filter((s) => !own(s.dir))
      // run in its package.json's directory: a `cd` there first, which the checks follow as any `cd`
      .map((s) => ({
        text: `cd '${s.dir.replace(/'/g, "'\\''")}'\n${s.text}`,
        from: `runs ${s.file ?? file(s.dir)}'s script \`${s.name}\`, a package.json outside the project`,
      }))
  );
}

/** Whether an absolute directory is one of the project's own packages' (see above), `control.cwd` being where hey started. */
function projectOf(control: ControlFiles): (dir: string) => boolean {
  const f = onWindows(control) ? WINDOWS : POSIX;
  const start = f.normalize(control.cwd!);
  const real = (dir: string) => {
    const r = control.realDir?.(dir);
    return typeof r === "string" ? f.normalize(r) : r === undefined ? dir : undefined; // undefined: it did not answer in time
  };
  const roots = new Set<string>();
  const packages = new Set<string>();
  const declared = (root: string) => {
    const listed = control.workspacePackages?.(root);
    return Array.isArray(listed) ? listed.map((d) => f.normalize(d)) : [];
  };
  let nearest = control.packageScripts!(start) !== undefined;
  for (let at = start, up = f.normalize(f.join(at, "..")); up !== at; at = up, up = f.normalize(f.join(up, ".."))) {
    if (control.packageScripts!(up) === undefined) continue;
    const listed = declared(up);
    // the nearest package.json above where hey started (what `npm test` there runs), or a workspace's root whose packages hold it or lie below it
    if (!nearest || listed.some((p) => below(start, p, f) || below(p, start, f))) roots.add(up);
    nearest = true;
  }
  for (const root of [start, ...roots]) for (const p of declared(root)) packages.add(p);
  const top = real(start) ?? start;
  return (dir: string) => {
    const d = f.normalize(dir);
    if (!below(d, start, f) && !roots.has(d) && !packages.has(d)) return false;
    // a folder of the project that is a link out of it (`src/lnk` to `/tmp/x`): where it leads is not the project
    const r = real(d);
    return r !== undefined && (below(r, top, f) || roots.has(d) || packages.has(d) || r === d);
  };
}

/** Whether the normalized `dir` is `top` or below it. */
function below(dir: string, top: string, f: Flavour): boolean {
  const sep = f === WINDOWS ? "\\" : "/";
  return dir === top || dir.startsWith(top.endsWith(sep) ? top : top + sep);
}

/** The words without the options that move a package manager to another package.json, and their values (before a `--`). */
function withoutMoves(words: Word[]): Word[] {
  const out: Word[] = [];
  const manager = words[0] && decided(words[0]) ? program(words[0].text).replace(/^npx$/, "npm") : "";
  const npm = manager === "npm"; // pnpm's `-w` is its workspace's root, taking no value
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (decided(w) && w.text === "--") return [...out, ...words.slice(i)];
    const text = decided(w) ? moveSpelling(manager, w.text) : "";
    if (i > 0 && decided(w) && (DIR_OPTION.test(text) || /^-C./.test(text) || WORKSPACE.test(text))) {
      // a value in the next word: `--prefix src`, `-C src`, `--workspace web`, `--filter web`, npm's `-w web`
      if (!text.includes("=") && (/^(--prefix|-C|--cwd|--dir|--workspace|--filter|-F|--filter-prod)$/.test(text) || (text === "-w" && npm))) i++;
      continue;
    }
    out.push(w);
  }
  return out;
}
