import { connectServer } from "./src/mcp/client.ts";
import { EVERYTHING_SERVER } from "./test/helpers/mcp.ts";
const s = { name: "ev", at: "x", command: "node", args: [EVERYTHING_SERVER, "stdio"], env: {}, headers: {}, enabled: true, timeoutMs: 10000 };
const sig = new AbortController().signal;
const c = await connectServer(s, { onClose: (w, e) => console.log("closed", w, e), onTools: (t) => console.log("tools changed", t.length) }, { version: "0", env: process.env, fetch }, sig);
for (const t of c.tools) console.log(t.name, JSON.stringify(t.inputSchema).slice(0, 150));
const o = { timeoutMs: 5000, signal: sig };
console.log(JSON.stringify(await c.call("echo", { message: "hi" }, o)));
console.log(JSON.stringify(await c.call("get-tiny-image", {}, o)).slice(0, 300));
console.log(JSON.stringify(await c.call("get-structured-content", { location: "Chicago" }, o)));
console.log(JSON.stringify(await c.call("get-sum", { a: "x", b: 2 }, o)).slice(0, 300));
try { console.log(JSON.stringify(await c.call("trigger-long-running-operation", { duration: 3, steps: 3 }, { timeoutMs: 1000, signal: sig }))); } catch (e) { console.log("ERR", e.kind, e.message); }
console.log(JSON.stringify(await c.call("echo", { message: "still" }, o)));
await c.close();
