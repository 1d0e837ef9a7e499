// What this binary says about itself (SPEC §20): the version from package.json plus the commit,
// build date and release target that scripts/build.ts injects with `bun build --define`. Pure.
// Run from source (`bun src/main.ts`) nothing is defined and the build reads as a dev build.
import pkg from "../../package.json" with { type: "json" };

// Replaced by literal strings at build time; `typeof` keeps an unbuilt run from a ReferenceError.
declare const HEY_COMMIT: string | undefined;
declare const HEY_BUILD_DATE: string | undefined;
declare const HEY_TARGET: string | undefined;

export interface BuildInfo {
  version: string;
  /** short commit hash, `-dirty` appended when the tree had changes; "dev" when not built */
  commit: string;
  /** YYYY-MM-DD (UTC) of the build; "" when not built */
  date: string;
  /** the release target this binary was built for (e.g. "linux-x64-musl"); undefined when not built */
  target: string | undefined;
}

export const BUILD: BuildInfo = {
  version: pkg.version,
  commit: typeof HEY_COMMIT === "string" ? HEY_COMMIT : "dev",
  date: typeof HEY_BUILD_DATE === "string" ? HEY_BUILD_DATE : "",
  target: typeof HEY_TARGET === "string" ? HEY_TARGET : undefined,
};

/** `hey 0.1.0 (3f2a9c1d4e5b, built 2026-12-02, linux-x64)`; `hey 0.1.0 (dev)` from source. */
export function versionLine(info: BuildInfo = BUILD): string {
  const parts = [info.commit, ...(info.date ? [`built ${info.date}`] : []), ...(info.target ? [info.target] : [])];
  return `hey ${info.version} (${parts.join(", ")})`;
}

/** The version a `hey --version` line names ("0.1.0"), or undefined when the text is not one. */
export function parseVersionLine(text: string): string | undefined {
  return /^hey (\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)(?: |$)/.exec(text.trim())?.[1];
}
