// A base URL pasted with its endpoint path is cut to the API root the SDK wants (src/config/endpoint-root.ts).
import { expect, test } from "bun:test";
import { endpointRoot } from "../../src/config/endpoint-root.ts";
import type { Protocol } from "../../src/kernel/ir.ts";

test.each([
  ["openai", "https://api.openai.com/v1/chat/completions", { root: "https://api.openai.com/v1", cut: "/chat/completions" }],
  ["openai", "http://127.0.0.1:11434/v1/chat/completions/", { root: "http://127.0.0.1:11434/v1", cut: "/chat/completions" }],
  ["responses", "https://api.openai.com/v1/responses", { root: "https://api.openai.com/v1", cut: "/responses" }],
  ["anthropic", "https://api.anthropic.com/v1/messages", { root: "https://api.anthropic.com/v1", cut: "/messages" }],
  ["google", "https://generativelanguage.googleapis.com/v1beta/models", { root: "https://generativelanguage.googleapis.com/v1beta", cut: "/models" }],
  [
    "google",
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro:streamGenerateContent",
    { root: "https://generativelanguage.googleapis.com/v1beta", cut: "/models/gemini-3-pro:streamGenerateContent" },
  ],
  // Gemini's endpoint query is cut with its path (the SDK adds its own), a key's value not shown
  [
    "google",
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse",
    { root: "https://generativelanguage.googleapis.com/v1beta", cut: "/models/gemini-3-pro:streamGenerateContent?alt=sse" },
  ],
  [
    "google",
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro:generateContent?key=AIzaSecret",
    { root: "https://generativelanguage.googleapis.com/v1beta", cut: "/models/gemini-3-pro:generateContent?key=…" },
  ],
  [
    "google",
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro",
    { root: "https://generativelanguage.googleapis.com/v1beta", cut: "/models/gemini-3-pro" },
  ],
  ["google", "https://gw.example/v1/models/", { root: "https://gw.example/v1", cut: "/models" }],
  // a gateway's own path before the endpoint stays, whatever its words
  [
    "google",
    "https://gw.example/google/models/v1beta/models/gemini-3-pro:generateContent",
    { root: "https://gw.example/google/models/v1beta", cut: "/models/gemini-3-pro:generateContent" },
  ],
  ["google", "https://gw.example/gemini/models/gemini-3-pro:countTokens", { root: "https://gw.example/gemini", cut: "/models/gemini-3-pro:countTokens" }],
  ["openai", "https://gw.example/chat/completions?api-version=2", { root: "https://gw.example/?api-version=2", cut: "/chat/completions" }],
  ["anthropic", "https://gw.example/messages", { root: "https://gw.example", cut: "/messages" }],
] as [Protocol, string, { root: string; cut: string }][])("%s %s → the API root", (protocol, url, expected) => {
  expect(endpointRoot(url, protocol)).toEqual(expected);
});

test.each([
  ["openai", "https://api.openai.com/v1"],
  ["openai", "https://gw.example/v1/messages"], // another protocol's endpoint is some gateway's own path
  ["anthropic", "https://api.anthropic.com"],
  ["responses", "https://api.openai.com/v1/chat/completions"],
  ["google", "https://generativelanguage.googleapis.com/v1beta"],
  // proxies whose paths merely hold the endpoints' words: their roots, not endpoints
  ["google", "https://gw.example/google/models/v1beta"],
  ["google", "https://gw.example/models/v1beta"],
  ["google", "https://gw.example/google/models"],
  ["google", "https://gw.example/models/gemini-3-pro"],
  ["google", "https://gw.example/models/gemini:3/v1beta"],
  ["openai", "https://gw.example/chat/completions/v1"],
  ["anthropic", "https://gw.example/messages/v1"],
  ["anthropic", "https://gw.example/anthropic-messages"],
  ["responses", "https://gw.example/responses-api/v1"],
  ["openai", "not a url"],
] as [Protocol, string][])("%s %s is left as it is", (protocol, url) => {
  expect(endpointRoot(url, protocol)).toBeUndefined();
});
