// The real "everything" server from npm (@modelcontextprotocol/server-everything) over stdio and
// over Streamable HTTP: text, image, structured and error results reach the model as they should,
// and a long-running tool that outlives timeout_ms is an error while the server stays usable.
// hey declares roots (not elicitation, not sampling): the server offers get-roots-list, which names the project root.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { pathToFileURL } from "node:url";
import { tempDir } from "../helpers/e2e.ts";
import { EVERYTHING_SERVER, serverSettings, startEverythingHttp, testManager, type HttpServer, type TestManager } from "../helpers/mcp.ts";
import { until } from "../helpers/wait.ts";
import { formatStatus } from "../../src/mcp/status.ts";

setDefaultTimeout(60_000);

describe.each(["stdio", "Streamable HTTP"] as const)("server-everything over %s", (transport) => {
  let cache: ReturnType<typeof tempDir>;
  let project: ReturnType<typeof tempDir>;
  let http: HttpServer | undefined;
  let m: TestManager;
  beforeAll(async () => {
    cache = tempDir("hey-mcp-cache-");
    project = tempDir("hey-mcp-project-");
    if (transport !== "stdio") http = await startEverythingHttp("streamableHttp");
    const where = http ? { url: http.url } : { command: "node", args: [EVERYTHING_SERVER, "stdio"] };
    // timeout_ms bounds the start too: node loading server-everything and its lists took up to 1.2 s
    // of a 1.5 s limit on a loaded 2-CPU machine
    m = testManager([serverSettings("ev", { ...where, timeoutMs: 4_000 })], { cacheDir: cache.path, roots: [project.path] });
  });
  afterAll(async () => {
    await m.manager.close();
    await http?.stop();
    cache.remove();
    project.remove();
  });

  test("it connects and its tools are offered under their own names", async () => {
    const names = (await m.tools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-tiny-image", "get-structured-content", "get-sum", "trigger-long-running-operation"]));
    expect(m.events[0]).toMatchObject({ type: "mcp", server: "ev", state: "connected" });
  });

  test("a tool it runs only as an MCP task is not offered, and /mcp says why: every call of it failed ('requires task-based execution. Use client.experimental.tasks.callToolStream() instead')", async () => {
    // it is registered once the session is up (a tools/list_changed notice may bring it)
    await until(() => m.manager.status()[0]?.tools?.some((t) => t.name === "simulate-research-query") === true, "the task tool to be listed");
    expect((await m.tools()).map((t) => t.name)).not.toContain("simulate-research-query");
    expect(formatStatus(m.manager.status(), m.manager.offer(), false)).toContain("simulate-research-query (runs only as an MCP task, which hey does not run)");
  });

  test("hey declares roots, so it is offered get-roots-list, which names the project root; the elicitation and sampling tools are not offered to hey", async () => {
    // before: hey declared no capability, and the server registered none of them
    await until(() => m.manager.status()[0]?.tools?.some((t) => t.name === "get-roots-list") === true, "get-roots-list to be listed");
    expect((await m.call("get-roots-list")).output).toContain(
      `Current MCP Roots (1 total):\n\n1. ${project.path.split("/").at(-1)}\n   URI: ${pathToFileURL(project.path).href}\n`,
    );
    const names = (await m.tools()).map((t) => t.name);
    expect(names.filter((n) => /elicitation|sampling/.test(n))).toEqual([]);
  });

  test("text", async () => {
    expect(await m.call("echo", { message: "hello" })).toEqual({ output: "Echo: hello" });
  });

  test("an image becomes an IR image beside the text", async () => {
    const r = await m.call("get-tiny-image");
    expect(r.output).toContain("Here's the image you requested:");
    expect(r.images).toEqual([{ type: "image", mediaType: "image/png", data: expect.stringMatching(/^iVBOR/) }]);
  });

  test("an embedded resource, text or a text blob, is its text", async () => {
    expect((await m.call("get-resource-reference", { resourceType: "Text", resourceId: 1 })).output).toMatch(
      /\nResource 1: This is a plaintext resource created at /,
    );
    // before: '[resource demo://resource/dynamic/blob/2 (text/plain) omitted]'
    expect((await m.call("get-resource-reference", { resourceType: "Blob", resourceId: 2 })).output).toMatch(/\nResource 2: This is a base64 blob created at /);
  });

  test("structured content (validated by the SDK against its output schema)", async () => {
    const r = await m.call("get-structured-content", { location: "Chicago" });
    expect(JSON.parse(r.output)).toEqual({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
    expect(r.isError).toBeUndefined();
  });

  test("an error result is a tool error", async () => {
    const r = await m.call("get-sum", { a: "one", b: 2 });
    expect(r.isError).toBe(true);
    expect(r.output).toMatch(/Input validation error.*expected number/);
  });

  test("a long-running tool silent past timeout_ms is an error text; the server is kept", async () => {
    const r = await m.call("trigger-long-running-operation", { duration: 8, steps: 1 }); // its one progress notice comes at the end
    expect(r).toEqual({
      output: "trigger-long-running-operation timed out after 4 s ([mcp.ev] timeout_ms); the server is still running and may finish it in the background",
      isError: true,
    });
    expect(await m.call("echo", { message: "still here" })).toEqual({ output: "Echo: still here" });
    expect(m.manager.status()[0]!.state).toBe("connected");
  });
});
