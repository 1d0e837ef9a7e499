// x154 finding 1: a /trust or /untrust within a session is told in a note before the user's words,
// not by rewriting the system prompt's guide — once each way, again only if a summary left it out.
// x160: the note names the project root's folders as the guide does, is said whatever the guide
// said (a stale note is corrected), and names every kind of file trust leaves out.
import { describe, expect, test } from "bun:test";
import { userMessage, type Message } from "../../src/kernel/ir.ts";
import { isHeysNote, typedText } from "../../src/kernel/user-notes.ts";
import { trustedNote, trustNote, untrustedNote, type GuideTrust } from "../../src/prompt/trust-note.ts";

const folders = {
  userSkills: "~/.config/hey/skills",
  userConfig: "~/.config/hey/config.toml",
  projectSkills: ".hey/skills",
  projectConfig: ".hey/config.toml",
};
const guide = (said: boolean | undefined, loads: boolean): GuideTrust => ({ ...(said === undefined ? {} : { said }), loads, ...folders });
const said = (...notes: string[]): Message[] =>
  notes.map((n) =>
    userMessage([
      { type: "text", text: n },
      { type: "text", text: "go on" },
    ]),
  );
const UNTRUSTED = untrustedNote(guide(true, false));
const TRUSTED = trustedNote(guide(false, true));
// as hey before x160 wrote them into sessions a `hey -c` goes on with
const OLD_TRUSTED = "[hey: this project is trusted now: its .hey/ loads (skills in .hey/skills/, MCP servers in .hey/config.toml)]";
const OLD_UNTRUSTED =
  "[hey: this project is not trusted now: its .hey/ does not load; skills go in ~/.config/hey/skills/, MCP servers in ~/.config/hey/config.toml]";

describe("trustNote", () => {
  test.each<[string, GuideTrust | undefined, Message[], string | undefined]>([
    ["the guide named the project's folders and they load: nothing", guide(true, true), [], undefined],
    ["the guide said untrusted and nothing loads: nothing", guide(false, false), [], undefined],
    ["named, then /untrust and /reload: told once", guide(true, false), [], UNTRUSTED],
    ["told already: not again", guide(true, false), said(UNTRUSTED), undefined],
    ["said untrusted, then /trust and /reload: told once", guide(false, true), [], TRUSTED],
    ["trusted again after an untrusted note", guide(true, true), said(UNTRUSTED), TRUSTED],
    ["untrusted again after a trusted note", guide(false, false), said(TRUSTED), UNTRUSTED],
    ["the guide said nothing of the project (the user's folders load in any run), nothing since", guide(undefined, false), [], undefined],
    ["the guide said nothing, trusted for the session: nothing", guide(undefined, true), [], undefined],
    // x160 #3: trusted in the REPL, then `hey trust --revoke` and `hey -c -p` in a project with nothing left out
    ["the guide said nothing, but a note said it loads, and it does not now: corrected", guide(undefined, false), said(TRUSTED), UNTRUSTED],
    ["the guide said nothing, a note said it does not load, and it does now: corrected", guide(undefined, true), said(UNTRUSTED), TRUSTED],
    ["a note an older hey wrote counts as said", guide(undefined, false), said(OLD_TRUSTED), UNTRUSTED],
    ["an older hey's untrusted note too", guide(true, false), said(OLD_UNTRUSTED), undefined],
    ["--no-skills: nothing", undefined, said(TRUSTED), undefined],
  ])("%s", (_, trust, history, want) => {
    expect(trustNote(trust, history)).toBe(want);
  });

  test("the untrusted note names the files left out and the user's folders", () => {
    expect(UNTRUSTED).toBe(
      "[hey: this project is not trusted now: its .hey/config.toml, .mcp.json and skills in .hey/, .claude/ or .agents/ do not load; skills go in ~/.config/hey/skills/, MCP servers in ~/.config/hey/config.toml]",
    );
  });

  test("the trusted note names the project root's folders as the guide writes them, not paths relative to a subdirectory (x160 #1)", () => {
    const fromSub = trustedNote({ ...guide(false, true), projectSkills: "~/proj/.hey/skills", projectConfig: "~/proj/.hey/config.toml" });
    expect(fromSub).toBe(
      "[hey: this project is trusted now: its .hey/config.toml, .mcp.json and skills in .hey/, .claude/ or .agents/ load; new skills go in ~/proj/.hey/skills/, MCP servers in ~/proj/.hey/config.toml]",
    );
    // known as the trusted note by its start, whatever paths it names: not said again
    expect(trustNote(guide(false, true), said(fromSub))).toBeUndefined();
  });

  test("both notes are hey's, not the user's words: a session's title and recap leave them out", () => {
    for (const note of [UNTRUSTED, TRUSTED]) expect(isHeysNote(note)).toBe(true);
    expect(typedText(said(UNTRUSTED)[0]!)).toBe("go on");
  });
});
