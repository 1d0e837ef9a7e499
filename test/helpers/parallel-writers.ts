// Several processes writing one of hey's shared records at the same moment (parallel `hey -p` runs,
// a REPL beside a CI job): each child updates the record `UPDATES` times, all starting together,
// so updates made without a lock overwrite one another. Run as a script: `bun parallel-writers.ts
// KIND DIR ID`; imported, `runWriters` starts the children and waits for them.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { updateApprovals } from "../../src/config/approval-store.ts";
import { withConfigs } from "../../src/config/approvals.ts";
import { saveHandOff } from "../../src/context/task-note.ts";
import { recordTrust } from "../../src/trust/store.ts";

export type WriterKind = "approvals" | "trust" | "hand-off";
/** Updates per child: a few, so the children's writes overlap whatever their start-up times. */
export const UPDATES = 5;

/** What child `id`'s update `n` adds: a config file's record, a project's trust, a hand-off's task. */
export const entry = (id: number, n: number) => `/w${id}-${n}`;
/** Every entry `count` children add, sorted. */
export const entries = (count: number) =>
  Array.from({ length: count }, (_, id) => Array.from({ length: UPDATES }, (_, n) => entry(id, n)))
    .flat()
    .sort();

async function write(kind: WriterKind, dir: string, id: number): Promise<void> {
  const approvals = join(dir, "approvals.json");
  for (let n = 0; n < UPDATES; n++) {
    const name = entry(id, n);
    if (kind === "approvals") await updateApprovals(approvals, (a) => withConfigs(a, { [name]: { mcp: {}, deny: ["bash: rm *"] } }));
    else if (kind === "trust") await recordTrust(join(dir, "trust.json"), name, true, approvals);
    else await saveHandOff(dir, `task ${name}`, `hand-off of ${name}`, "max_turns");
  }
}

/** Runs `count` writers of `kind` on the records in `dir` at once; resolves with their exit codes and stderr (all 0 and "" when each succeeded). */
export async function runWriters(kind: WriterKind, dir: string, count: number): Promise<{ code: number; stderr: string }[]> {
  const children = Array.from({ length: count }, (_, id) =>
    Bun.spawn([process.execPath, import.meta.path, kind, dir, String(id)], {
      stdout: "ignore",
      stderr: "pipe",
      env: { ...process.env, WRITERS: String(count) },
    }),
  );
  try {
    return await Promise.all(children.map(async (c) => ({ stderr: await new Response(c.stderr).text(), code: await c.exited })));
  } finally {
    for (const c of children) c.kill();
  }
}

if (import.meta.main) {
  const [kind, dir, id] = process.argv.slice(2) as [WriterKind, string, string];
  // every child starts writing at once: the first to be ready waits for the others' marks
  await Bun.write(join(dir, `.ready-${id}`), "");
  const count = Number(process.env.WRITERS);
  while (!Array.from({ length: count }, (_, i) => existsSync(join(dir, `.ready-${i}`))).every(Boolean)) await Bun.sleep(2);
  await write(kind, dir, Number(id));
}
