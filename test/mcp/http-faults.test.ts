// What a remote server's error bodies mean: only an OAuth error code (what the MCP SDK's auth
// layer answers with) reads as an auth layer's error; a JSON-RPC error or an app's own
// `{"error": …}` does not.
import { expect, test } from "bun:test";
import { oauthError } from "../../src/mcp/http-faults.ts";

test("an auth layer's OAuth error body is read as one; an app's own error body and a JSON-RPC error are not", () => {
  expect(oauthError('Streamable HTTP error: Error POSTing to endpoint: {"error":"server_error","error_description":"Internal Server Error"}')).toBe(
    "server_error (Internal Server Error)",
  );
  expect(oauthError('HTTP 400: {"error":"invalid_token"}')).toBe("invalid_token");
  expect(oauthError('Error POSTing to endpoint: {"error":"Database unavailable"}')).toBeUndefined();
  expect(oauthError('Error POSTing to endpoint: {"error":"not_found","message":"no such tool"}')).toBeUndefined();
  expect(oauthError('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Bad Request"}}')).toBeUndefined();
});
