// The MCP SDK's failures as hey says them (SPEC §14): a request's as a CallError, a connection's as
// the reason it did not start, and whether a request found its remote session gone. Pure: the
// SDK's error classes are given (client.ts's loaded SDK fits `SdkErrors`).
import { httpText, legacySessionGone, sessionGone } from "./http-faults.ts";
import { CallError } from "./server.ts";
import { errorText } from "../kernel/errors.ts";

type ErrorClass<E> = abstract new (...args: never[]) => E;

/** The SDK's error classes and codes hey tells apart. */
export interface SdkErrors {
  McpError: ErrorClass<Error & { code: number }>;
  ErrorCode: { RequestTimeout: number; ConnectionClosed: number };
  StreamableHTTPError: ErrorClass<Error & { code?: number }>;
  SseError: ErrorClass<Error & { code?: number }>;
  UnauthorizedError: ErrorClass<Error>;
}

/** Whether a request failed because the server no longer knows the session (http-faults.ts). */
export function sessionLost(e: unknown, lib: SdkErrors): boolean {
  return e instanceof lib.StreamableHTTPError ? sessionGone(e.code ?? 0, e.message) : legacySessionGone(e);
}

/** Any SDK failure of a request as a CallError. */
export function callError(e: unknown, lib: SdkErrors): CallError {
  if (e instanceof CallError) return e;
  if (e instanceof lib.McpError && e.code === lib.ErrorCode.RequestTimeout) return new CallError("timeout", e.message);
  if (e instanceof lib.McpError && e.code === lib.ErrorCode.ConnectionClosed) return new CallError("closed", e.message);
  if (e instanceof lib.UnauthorizedError || (e instanceof lib.StreamableHTTPError && e.code === 401) || (e instanceof lib.SseError && e.code === 401))
    return new CallError("auth", "the server no longer accepts hey's sign-in, and it could not be refreshed");
  if (e instanceof Error && /not connected/i.test(e.message)) return new CallError("closed", e.message);
  if (e instanceof lib.StreamableHTTPError) return new CallError("failed", httpText(e));
  return new CallError("failed", errorText(e));
}

/** What went wrong while connecting, in the user's terms. */
export function connectMessage(e: unknown, lib: SdkErrors, exited: string): string {
  if (e instanceof lib.McpError && e.code === lib.ErrorCode.RequestTimeout) return "it did not answer initialize in time (timeout_ms)";
  if (e instanceof lib.McpError && e.code === lib.ErrorCode.ConnectionClosed) return `it ${exited.replace(/^the connection /, "")} before it was ready`;
  if (e instanceof lib.StreamableHTTPError) return httpText(e);
  return errorText(e);
}
