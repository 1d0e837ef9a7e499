// x137 finding 1: Ctrl-Z mid-answer, the window resized while hey is stopped, `fg`. No SIGWINCH
// reaches a stopped job, so hey asks the terminal its size again where drawing resumes: the rest
// of the answer wraps at the new width, as after a resize while hey runs, not at the old one.
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { testNeeding } from "../helpers/tools.ts";
import { heldAnswer, lastLine, replTerms } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { start } = replTerms(server);

for (const how of ["C-z", "SIGSTOP"] as const)
  testNeeding(["tmux", "bash"])(
    `stopped (${how}) mid-answer at 100 columns, the window narrowed to 50, fg: the rest of the answer wraps at 50`,
    async () => {
      const t = await start({ args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"], jobControl: true, cols: 100, rows: 30 });
      await t.waitFor((s) => lastLine(s) === "›");
      let open = () => {};
      const words = Array.from({ length: 60 }, (_, i) => `word${i + 10}`).join(" ");
      server.enqueue(heldAnswer(`${words} end.`, 3, new Promise((resolve) => (open = () => resolve()))));
      await t.type("long");
      await t.keys("Enter");
      await t.waitFor("word12");
      if (how === "C-z") await t.keys("C-z");
      else {
        // SIGSTOP, which hey cannot see, to its process group (the script that runs it too), as `kill -STOP` does
        const stat = readFileSync(`/proc/${await t.heyPid()}/stat`, "utf8");
        process.kill(-Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]), "SIGSTOP");
      }
      await t.waitFor(/Stopped/);
      await t.resize(50, 30);
      await t.type("fg");
      await t.keys("Enter");
      await t.waitFor((s) => s.includes("$ fg"));
      open();
      await t.waitFor((s) => s.includes("end.") && lastLine(s) === "›");
      // rows joined where the terminal wrapped them: a line hey broke at 100 columns shows whole
      const screen = await t.screen({ scrollback: true, joined: true });
      const answer = screen.slice(screen.indexOf("word10"), screen.indexOf("end.") + 4).split("\n");
      const rest = answer.slice(answer.findIndex((l) => l.includes("$ fg")) + 1); // the unfinished line again, then the rest
      expect(
        new Set(
          rest
            .join(" ")
            .split(/\s+/)
            .filter((w) => w.startsWith("word")),
        ).size,
      ).toBe(60); // every word shown
      expect(rest.length).toBeGreaterThan(3);
      expect(rest.filter((l) => l.trimEnd().length > 50)).toEqual([]);
      expect(rest.filter((l) => l.trimEnd().length > 40).length).toBeGreaterThan(3); // filled to the new width, not the old
    },
    E2E_TIMEOUT,
  );
