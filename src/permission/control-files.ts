// hey's own control files (issue 24): while a permission list is set, no bash redirection may write
// them — the user config, trust.json, a project's `.hey/config.toml` — or the agent could widen its
// own rules. The caller names the files (hey's directories are not the checker's to compute). A
// target decided at run time counts as every file its known parts allow. Pure.
import type { Redirect, Segment } from "./shell-model.ts";

/** The files, as absolute paths, and what the checker needs to resolve a target: the user's home (`~`) and the directory commands start in. */
export interface ControlFiles {
  paths: string[];
  home?: string;
  cwd?: string;
}

/** Redirections that open their target for writing (`>&2` and `>&-` duplicate or close an fd instead). */
function writes(r: Redirect): boolean {
  const op = r.op.replace(/^\d+/, "");
  if (op === ">&") return !/^(\d+|-)$/.test(r.target.text) || r.target.unknown;
  return [">", ">>", ">|", "<>", "&>", "&>>"].includes(op);
}

/** `.` and `..` resolved, `//` joined; `..` above the root stays at the root. */
function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return "/" + out.join("/");
}

/** A RegExp source for the target's text: expansions (`$X`, `${…}`, `$(…)`, backticks) and globs match any run of characters. */
function pattern(text: string): string {
  let re = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "$" || c === "`" || c === "*" || c === "?" || c === "[") {
      re += "[^]*";
      if (c === "$" && (text[i + 1] === "(" || text[i + 1] === "{")) {
        const [open, close] = text[i + 1] === "(" ? ["(", ")"] : ["{", "}"];
        let depth = 0;
        for (i++; i < text.length; i++) {
          if (text[i] === open) depth++;
          else if (text[i] === close && --depth === 0) break;
        }
      } else if (c === "$") while (/[A-Za-z0-9_@*#?$!-]/.test(text[i + 1] ?? "")) i++;
      else if (c === "`") i = Math.max(i, text.indexOf("`", i + 1));
      else if (c === "[") i = Math.max(i, text.indexOf("]", i + 1));
    } else re += c.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  return re;
}

/**
 * Could writing the redirection's target reach a control file? A relative target is resolved
 * against `cwd` when the script cannot have changed directory (`moved` false), else compared with
 * every tail of each control path.
 */
function reaches(r: Redirect, control: ControlFiles, moved: boolean): boolean {
  let text = r.target.text;
  const known = !r.target.unknown && !r.target.glob;
  if (r.target.raw.startsWith("~")) {
    const slash = text.indexOf("/");
    const user = slash < 0 ? text.slice(1) : text.slice(1, slash);
    if (user || !control.home) return true; // another user's home, or ours unknown: could be anything
    text = control.home + (slash < 0 ? "" : text.slice(slash));
  }
  const absolute = text.startsWith("/");
  if (known) {
    if (absolute) return control.paths.includes(normalize(text));
    if (!moved && control.cwd) return control.paths.includes(normalize(`${control.cwd}/${text}`));
    if (text.split("/").includes("..")) return true;
    const tail = normalize(text);
    return control.paths.some((p) => p === tail || p.endsWith(tail));
  }
  const re = pattern(text);
  if (absolute || re.startsWith("[^]*")) return control.paths.some((p) => new RegExp(`^${re}$`).test(p));
  return control.paths.some((p) => new RegExp(`(^|/)${re}$`).test(p));
}

const CHANGES_DIR = new Set(["cd", "pushd", "popd"]);

/** The first redirection among `segments` that could write a control file, as it was written. */
export function controlWrite(segments: Segment[], control: ControlFiles): string | undefined {
  const moved = segments.some((s) => s.words[0] && (s.words[0].unknown || s.words[0].glob || s.words[0].anyValue || CHANGES_DIR.has(s.words[0].text)));
  for (const seg of segments) {
    const hit = seg.redirects.find((r) => writes(r) && reaches(r, control, moved));
    if (hit) return `${hit.op} ${hit.target.raw}`;
  }
  return undefined;
}
