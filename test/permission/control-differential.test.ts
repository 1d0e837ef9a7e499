// Issue 24's control files against real shells: every command of the control corpus
// (control-corpus.ts) that the checker allows — read as the shell that runs it, and as /bin/sh —
// runs under real dash and bash in a fresh copy of the fixture (a home, a project holding links to
// hey's files), and afterwards every control file is as it was. Each class is live: a command the
// checker refuses did change a control file when run. Everything happens inside the test's own
// directory; the commands write nowhere else.
import { expect } from "bun:test";
import { realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture, generateControlCorpus, snapshot } from "./control-corpus.ts";

const LISTS = {
  allow: ["bash: cat * > *", "bash: cat *", "bash: echo * > *", "bash: echo *", "bash: ls", "bash: cd *", "bash: pushd *", "bash: mkdir *"],
  broad: ["bash: env *", "bash: sh *", "bash: find *", "bash: true", "bash: F=*", "bash: D=*"],
};
const POLICIES = {
  allow: { allow: [...LISTS.allow, ...LISTS.broad], deny: [], narrow: [] },
  deny: { allow: [], deny: ["bash: rm *"], narrow: [] },
};

testNeeding(["dash", "bash"])(
  "no command the checker allows changes a control file when dash or bash runs it, and every class's attacks work when not refused",
  () => {
    const tmp = tempDir("hey-control-diff-");
    const root = realpathSync(tmp.path);
    try {
      const violations: string[] = [];
      const live = new Map<string, number>();
      let allowed = 0;
      for (const c of generateControlCorpus()) {
        for (const shell of ["dash", "bash"] as const) {
          const fresh = () => {
            rmSync(join(root, "f"), { recursive: true, force: true });
            return controlFixture(join(root, "f"));
          };
          const { home, project, controls } = fresh();
          const decisions = Object.entries(POLICIES).flatMap(([name, lists]) =>
            [shell, "sh"].map((reading) => ({
              name,
              reading,
              refusal: permissionCheck(lists, reading, { cwd: project, home, controls })("bash", { command: c.command }),
            })),
          );
          const allowedBy = decisions.filter((d) => d.refusal === undefined);
          if (!allowedBy.length && !c.first) continue;
          const before = snapshot(controls);
          Bun.spawnSync([shell, "-c", c.command], {
            cwd: project,
            env: { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" },
            stdout: "ignore",
            stderr: "ignore",
          });
          const changed = JSON.stringify(snapshot(controls)) !== JSON.stringify(before);
          if (allowedBy.length) allowed++;
          if (changed && allowedBy.length)
            violations.push(
              `${shell} changed a control file for ${JSON.stringify(c.command)} (${c.cls}), allowed by ${allowedBy.map((d) => `${d.name} read as ${d.reading}`).join(", ")}`,
            );
          if (changed && !allowedBy.length) live.set(c.cls, (live.get(c.cls) ?? 0) + 1);
        }
      }
      expect(violations).toEqual([]);
      expect(allowed).toBeGreaterThanOrEqual(20); // the usable class, at least
      for (const cls of ["link", "hard", "dangling", "dotdot", "cd", "runtime", "elsewhere"])
        expect({ cls, live: (live.get(cls) ?? 0) > 0 }).toEqual({ cls, live: true });
      expect(live.get("usable")).toBeUndefined();
    } finally {
      tmp.remove();
    }
  },
  60_000,
);
