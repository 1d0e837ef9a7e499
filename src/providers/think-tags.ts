// Thinking written into the answer's own text as `<think>…</think>`, as servers without a
// reasoning parser send it: vLLM without --reasoning-parser, llama.cpp with --reasoning-format
// none, older Ollama templates, LM Studio, hosted R1 distills. Only a message whose content starts
// with the tag (white space before it allowed) thinks so; a `<think>` later in an answer is text,
// and so is a `</think>` with no opening tag (telling it apart would mean holding the answer back).
// Pure: a state machine fed the content as it streams.

const OPEN = "<think>";
const CLOSE = "</think>";

/** What one piece of content holds: its thinking and its answer text, either possibly "". */
export interface ThinkSplit {
  thinking: string;
  text: string;
}

/** "start": nothing but white space yet; "thinking": inside the tag; "after": past it, before the answer's first character. */
type Phase = "start" | "thinking" | "after" | "text";

export interface ThinkTags {
  /** The next piece of content, split; what may still be part of a tag is held back. */
  push(content: string): ThinkSplit;
  /** The end of the content: whatever was held back. An unclosed `<think>` is all thinking. */
  end(): ThinkSplit;
}

/** A splitter for one message's content. Never throws. */
export function thinkTags(): ThinkTags {
  let phase: Phase = "start";
  let held = ""; // content not yet said: leading white space, a tag cut between chunks, white space before `</think>`
  let thought = false; // whether any thinking was said (its leading white space is dropped)

  const step = (): ThinkSplit => {
    const out: ThinkSplit = { thinking: "", text: "" };
    if (phase === "start") {
      const start = held.trimStart();
      if (start === "" || (start.length < OPEN.length && OPEN.startsWith(start))) return out;
      if (!start.startsWith(OPEN)) {
        phase = "text";
        out.text = held;
        held = "";
        return out;
      }
      phase = "thinking";
      held = start.slice(OPEN.length);
    }
    if (phase === "thinking") {
      const close = held.indexOf(CLOSE);
      const said = close >= 0 ? held.slice(0, close).trimEnd() : held.slice(0, heldFrom(held));
      out.thinking = thought ? said : said.trimStart();
      thought ||= out.thinking !== "";
      held = close >= 0 ? held.slice(close + CLOSE.length) : held.slice(said.length);
      if (close < 0) return out;
      phase = "after";
    }
    if (phase === "after") {
      held = held.trimStart(); // the blank lines between the thinking and the answer
      if (held === "") return out;
      phase = "text";
    }
    out.text = held;
    held = "";
    return out;
  };

  return {
    push(content) {
      held += content;
      return step();
    },
    end() {
      const rest = held;
      held = "";
      if (phase === "thinking") return { thinking: thought ? rest.trimEnd() : rest.trim(), text: "" };
      return { thinking: "", text: phase === "after" ? "" : rest };
    },
  };
}

/**
 * Where the tail of `s` that might still end the thinking begins: white space, then a beginning
 * of `</think>` (the white space is dropped if the tag follows, said if more thinking does).
 */
function heldFrom(s: string): number {
  let from = s.length;
  for (let k = Math.min(CLOSE.length - 1, s.length); k > 0; k--)
    if (CLOSE.startsWith(s.slice(s.length - k))) {
      from = s.length - k;
      break;
    }
  while (from > 0 && /\s/.test(s[from - 1]!)) from--;
  return from;
}
