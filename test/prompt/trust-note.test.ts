// x154 finding 1: a /trust or /untrust within a session is told in a note before the user's words,
// not by rewriting the system prompt's guide — once each way, again only if a summary left it out.
import { describe, expect, test } from "bun:test";
import { userMessage, type Message } from "../../src/kernel/ir.ts";
import { isHeysNote, typedText } from "../../src/kernel/user-notes.ts";
import { TRUSTED_NOTE, trustNote, untrustedNote, type GuideTrust } from "../../src/prompt/trust-note.ts";

const folders = { userSkills: "~/.config/hey/skills", userConfig: "~/.config/hey/config.toml" };
const guide = (said: boolean, loads: boolean): GuideTrust => ({ said, loads, ...folders });
const said = (...notes: string[]): Message[] =>
  notes.map((n) =>
    userMessage([
      { type: "text", text: n },
      { type: "text", text: "go on" },
    ]),
  );
const UNTRUSTED = untrustedNote(guide(true, false));

describe("trustNote", () => {
  test.each<[string, GuideTrust | undefined, Message[], string | undefined]>([
    ["the guide named the project's folders and they load: nothing", guide(true, true), [], undefined],
    ["the guide said untrusted and nothing loads: nothing", guide(false, false), [], undefined],
    ["named, then /untrust and /reload: told once", guide(true, false), [], UNTRUSTED],
    ["told already: not again", guide(true, false), said(UNTRUSTED), undefined],
    ["said untrusted, then /trust and /reload: told once", guide(false, true), [], TRUSTED_NOTE],
    ["trusted again after an untrusted note", guide(true, true), said(UNTRUSTED), TRUSTED_NOTE],
    ["untrusted again after a trusted note", guide(false, false), said(TRUSTED_NOTE), UNTRUSTED],
    ["the guide said nothing of the project (the user's folders load in any run)", undefined, [], undefined],
  ])("%s", (_, trust, history, want) => {
    expect(trustNote(trust, history)).toBe(want);
  });

  test("the untrusted note names the user's folders", () => {
    expect(UNTRUSTED).toBe(
      "[hey: this project is not trusted now: its .hey/ does not load; skills go in ~/.config/hey/skills/, MCP servers in ~/.config/hey/config.toml]",
    );
  });

  test("both notes are hey's, not the user's words: a session's title and recap leave them out", () => {
    for (const note of [UNTRUSTED, TRUSTED_NOTE]) expect(isHeysNote(note)).toBe(true);
    expect(typedText(said(UNTRUSTED)[0]!)).toBe("go on");
  });
});
