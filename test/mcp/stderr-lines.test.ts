// What of a failed MCP server's stderr is shown (src/mcp/stderr-lines.ts).
import { expect, test } from "bun:test";
import { stderrLines } from "../../src/mcp/stderr-lines.ts";

// what `node /nonexistent/path/index.js` writes (Node 20)
const NODE_MISSING = `node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module '/nonexistent/path/index.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2
`;

test("Node's error line is shown above the last lines, its stack frames never", () => {
  expect(stderrLines(NODE_MISSING, 3)).toEqual(["Error: Cannot find module '/nonexistent/path/index.js'", "}", "Node.js v20.20.2"]);
  expect(stderrLines(NODE_MISSING, 5)).toEqual([
    "Error: Cannot find module '/nonexistent/path/index.js'",
    "  code: 'MODULE_NOT_FOUND',",
    "  requireStack: []",
    "}",
    "Node.js v20.20.2",
  ]);
});

test("an error on the last lines (Python's traceback) is shown once, in its place", () => {
  const python = "Traceback (most recent call last):\n  File \"server.py\", line 1, in <module>\n    import mcp\nModuleNotFoundError: No module named 'mcp'\n";
  expect(stderrLines(python, 3)).toEqual(['  File "server.py", line 1, in <module>', "    import mcp", "ModuleNotFoundError: No module named 'mcp'"]);
});

test("without an error line, the last lines; nothing for an empty stderr", () => {
  expect(stderrLines("starting\nlistening on stdio\nbye\n", 2)).toEqual(["listening on stdio", "bye"]);
  expect(stderrLines("", 3)).toEqual([]);
  expect(stderrLines("fatal: not a git repository\nusage: x\n", 1)).toEqual(["fatal: not a git repository"]);
});

test("a line carriage returns rewrote is what a terminal shows: the text after its last CR (curl's progress meter); CRLF ends are no rewrite", () => {
  const curl =
    "  % Total    % Received % Xferd  Average Speed   Time\n" +
    "\r  0     0    0     0    0     0      0      0 --:--:-- --:--:--     0\r  0     0    0     0    0     0      0      0 --:--:-- --:--:--     0\n" +
    "curl: (7) Failed to connect to 127.0.0.1 port 41049: Connection refused\n";
  expect(stderrLines(curl, 2)).toEqual([
    "  0     0    0     0    0     0      0      0 --:--:-- --:--:--     0",
    "curl: (7) Failed to connect to 127.0.0.1 port 41049: Connection refused",
  ]);
  expect(stderrLines("loading 10%\rloading 100%\r\nready\r\n", 3)).toEqual(["loading 100%", "ready"]);
  expect(stderrLines("\rworking…\r\n", 3)).toEqual(["working…"]);
});
