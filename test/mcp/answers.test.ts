// What hey names to a server as its roots (answers.ts): the directories a local server's args name,
// else the project root; as file:// URIs.
import { expect, test } from "bun:test";
import { projectRoots, rootsOf, serverBases, serverRoots } from "../../src/mcp/answers.ts";

const dirs = new Set(["/home/me/notes", "/srv/proj", "/srv/proj/sub", "/home/me"]);
const where = { cwd: "/srv/proj", home: "/home/me", isDir: (p: string) => dirs.has(p) };

test.each([
  [{ command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem"] }, ["/srv/proj"]], // no directory: the project
  [{ command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"] }, ["/home/me/notes"]], // kept to its own
  [{ command: "node", args: ["fs.js", "~/notes", "sub"] }, ["/home/me/notes", "/srv/proj/sub"]], // ~ and relative, as it reads them
  [{ command: "node", args: ["fs.js", "."], cwd: "/home/me" }, ["/home/me"]], // relative to its cwd
  [{ command: "node", args: ["--root", "/nowhere"] }, ["/srv/proj"]], // no directory there: the project
  [{ url: "https://mcp.example.com/mcp", args: ["/home/me/notes"] }, ["/srv/proj"]], // a remote server: the project
  // where the launcher runs the server from is no root of its (the MCP quickstart's uv form): the project
  [{ command: "uv", args: ["--directory", "/home/me/notes", "run", "weather.py"] }, ["/srv/proj"]],
  [{ command: "npx", args: ["--prefix", "/home/me", "server-filesystem", "/home/me/notes"] }, ["/home/me/notes"]],
] as const)("serverRoots(%j) → %j", (s, want) => {
  expect(serverRoots({ ...s, args: [...s.args] }, ["/srv/proj"], where)).toEqual([...want]);
});

test("roots are file:// URIs named after their last part", () => {
  expect(rootsOf(["/srv/my proj"])).toEqual({ roots: [{ uri: "file:///srv/my%20proj", name: "my proj" }] });
});

test("the project root is the root named to servers, unless it holds hey's own config or state (hey started in the home directory, or at /): then none", () => {
  const at = (root: string) => projectRoots({ root, configDir: "/home/me/.config/hey", stateDir: "/home/me/.local/state/hey" });
  expect(at("/home/me/src/shop")).toEqual(["/home/me/src/shop"]);
  expect(at("/home/me")).toEqual([]);
  expect(at("/")).toEqual([]);
  expect(at("/home/me/.config")).toEqual([]);
  expect(at("/home/me/.configs")).toEqual(["/home/me/.configs"]);
});

// x136: a home (or XDG_CONFIG_HOME) reached through a link: hey's folders, named through it, did not
// look inside the root the launch directory names without it, and the server got all of ~
test("hey's folders named through a link are inside the root all the same: none", () => {
  const links: Record<string, string> = { "/home/me/.config/hey": "/usr/home/me/.config/hey", "/home/me/.local/state/hey": "/usr/home/me/.local/state/hey" };
  const here = { root: "/usr/home/me", configDir: "/home/me/.config/hey", stateDir: "/home/me/.local/state/hey" };
  expect(projectRoots(here, (dir) => links[dir] ?? dir)).toEqual([]);
  expect(projectRoots({ ...here, root: "/usr/home/me/src/shop" }, (dir) => links[dir] ?? dir)).toEqual(["/usr/home/me/src/shop"]);
});

// x56: the control-file guard reads an MCP server's relative path from each of these
test("serverBases: where a server runs, its roots, and hey's directory", () => {
  const here = { ...where, cwd: "/srv/proj/sub" };
  const bases = serverBases(
    [
      { name: "fs", command: "node", args: ["fs.js", "."], cwd: "/srv/proj" }, // a project's server: runs in the root
      { name: "notes", command: "node", args: ["fs.js", "/home/me/notes"] }, // the user's: runs where hey started
      { name: "remote", args: [] }, // a url, no command
    ],
    ["/srv/proj"],
    here,
  );
  expect(bases("fs")).toEqual(["/srv/proj", "/srv/proj/sub"]);
  expect(bases("notes")).toEqual(["/srv/proj/sub", "/home/me/notes"]);
  expect(bases("remote")).toEqual(["/srv/proj/sub", "/srv/proj"]);
  expect(bases("unknown")).toEqual(["/srv/proj/sub", "/srv/proj"]);
});
