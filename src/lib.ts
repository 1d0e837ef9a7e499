// hey's kernel for embedding (the seed's `lib.rs`): the message IR, the Provider / Tool / Output
// interfaces, the agent loop, the four protocol adapters behind `createProvider`, and the
// built-in tools. Nothing here reads configuration, the terminal or the environment: the
// embedder passes everything in. The CLI (main.ts → run.ts → wire.ts) is one such embedder.
export {
  EFFORTS,
  PROTOCOLS,
  addUsage,
  emptyUsage,
  newId,
  parseArguments,
  textOf,
  userMessage,
  type ContentBlock,
  type Effort,
  type ImagePart,
  type Message,
  type Protocol,
  type Role,
  type StopReason,
  type TextPart,
  type ThinkingPart,
  type ToolCall,
  type ToolSpec,
  type Usage,
} from "./kernel/ir.ts";
export { ProviderError, type ModelRequest, type Provider, type ProviderErrorKind, type StreamEvent } from "./kernel/provider.ts";
export type { Tool, ToolContext, ToolResult } from "./kernel/tool.ts";
export { fanOut, type AgentEvent, type ErrorKind, type Output, type RunStop, type UsageCounts } from "./kernel/output.ts";
export { runLoop, type LoopDeps, type RequestContext, type RunResult } from "./kernel/loop.ts";
export { MAX_TURNS_PROMPT, type HandOffLimit } from "./kernel/hand-off.ts";
export type { PermissionCheck } from "./kernel/tool-calls.ts";
export type { RetryPolicy } from "./kernel/retry.ts";
export { createProvider, type ProviderOptions } from "./providers/create.ts";
export { createBashTool, type BashToolOptions } from "./tools/bash.ts";
export { createEditTool } from "./tools/edit.ts";
export { createGrepTool } from "./tools/grep.ts";
export { createReadFileTool } from "./tools/read-file.ts";
export { createWriteFileTool } from "./tools/write-file.ts";
export { chooseShell, type ShellChoice } from "./tools/shell.ts";
