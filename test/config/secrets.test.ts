// The secrets hey knows, their redaction, and the environment of the commands the model runs.
import { describe, expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import { knownSecrets, redact, redactDeep, REDACTED, redactingOutput, streamRedactor, toolEnvironment } from "../../src/config/secrets.ts";
import { recordingOutput } from "../helpers/recording-output.ts";

const KEY = "sk-test-0123456789abcdef";
const settingsWith = (data: Record<string, unknown>, env: Record<string, string>) => resolveConfig([{ source: "/c.toml", data }], env, {}).settings;

describe("knownSecrets", () => {
  const env = { OPENAI_API_KEY: KEY, HTTPS_PROXY: "http://ana:pr0xy-pa%24%24@proxy:8080" };
  const settings = settingsWith(
    {
      provider: {
        gw: {
          base_url: "http://127.0.0.1:9/v1",
          api_key: "${OPENAI_API_KEY}",
          headers: { Authorization: "Bearer gw-token-99999", "X-Team": "core-platform" },
          models: ["m"],
        },
      },
      mcp: { gh: { command: "gh-mcp", env: { GITHUB_TOKEN: "ghp_abcdefghijkl", LOG_LEVEL: "debug-verbose" } } },
    },
    env,
  );
  const secrets = knownSecrets(settings, env, "socks5://u:cli-secret-pass@h:1080");

  test("API keys, credential headers (with and without their scheme), MCP env credentials, proxy passwords", () => {
    for (const s of [KEY, "Bearer gw-token-99999", "gw-token-99999", "ghp_abcdefghijkl", "pr0xy-pa$$", "pr0xy-pa%24%24", "cli-secret-pass"])
      expect(secrets).toContain(s);
    expect(secrets).not.toContain("core-platform");
    expect(secrets).not.toContain("debug-verbose");
  });

  test("longest first, so a secret inside another is never half-replaced", () => {
    expect(secrets.indexOf("Bearer gw-token-99999")).toBeLessThan(secrets.indexOf("gw-token-99999"));
    expect(redact("auth: Bearer gw-token-99999.", secrets)).toBe(`auth: ${REDACTED}.`);
  });

  test("the password of a base_url or an MCP server's url with credentials (fetch sends it as Basic auth): the error naming the URL hides it", () => {
    const s = settingsWith(
      {
        provider: { lan: { base_url: "http://user:hunter2secret@127.0.0.1:1/v1", models: ["m"] } },
        mcp: { remote: { url: "https://bot:mcp-pa%24%24word@mcp.example/mcp" } },
      },
      {},
    );
    const found = knownSecrets(s, {});
    expect(found).toEqual(expect.arrayContaining(["hunter2secret", "mcp-pa$$word", "mcp-pa%24%24word"]));
    expect(redact("cannot connect to http://user:hunter2secret@127.0.0.1:1/v1: connection refused", found)).toBe(
      `cannot connect to http://user:${REDACTED}@127.0.0.1:1/v1: connection refused`,
    );
  });

  test("values shorter than 8 characters are not secrets", () => {
    const s = settingsWith({ provider: { x: { base_url: "http://h/v1", api_key: "short", models: ["m"] } } }, {});
    expect(knownSecrets(s, {})).toEqual([]);
  });
});

test("redactDeep copies only what changed and leaves other values alone", () => {
  const event = { type: "tool_result", id: "c1", ok: true, output: `the key is ${KEY}`, n: 3, nested: [{ text: "clean" }] };
  const out = redactDeep(event, [KEY]);
  expect(out).toEqual({ ...event, output: `the key is ${REDACTED}` });
  expect(out.nested).toBe(event.nested);
  const clean = { type: "text_delta", text: "hello" };
  expect(redactDeep(clean, [KEY])).toBe(clean);
});

test("the commands' environment loses the variables that hold an API key, unless kept", () => {
  const env = { OPENAI_API_KEY: KEY, HEY_API_KEY: KEY, PATH: "/bin", HOME: "/h", OTHER: "x" };
  const settings = settingsWith({ provider: { p: { base_url: "http://h/v1", api_key: "${OPENAI_API_KEY}", models: ["m"] } } }, env);
  expect(toolEnvironment(env, settings, [])).toEqual({ PATH: "/bin", HOME: "/h", OTHER: "x" });
  expect(toolEnvironment(env, settings, ["OPENAI_API_KEY"])).toEqual({ OPENAI_API_KEY: KEY, PATH: "/bin", HOME: "/h", OTHER: "x" });
});

test("environment variables named as credentials: their values are secrets hey knows, the commands keep the variables; short or plain values are not", () => {
  const env = {
    GITHUB_TOKEN: "ghp_" + "Zq8Wn4Lk2Jh6Gf0Ds9Ap7Ox5Ic3Ub1Ty9Rz3",
    AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    DB_PASSWORD: "hunter2hunter2",
    STRIPE_SECRET: "whsec_9f8e7d6c5b4a",
    PGPASSWORD: "Secr3tPass99", // libpq's, run together
    PG_PASSWORD: "postgres", // one kind of character: a word that is all over a codebase
    REDIS_PASSWORD: "1",
    TLS_KEY: "/etc/ssl/private/server-01.key", // a path
    AUTH_TOKEN: "Short1", // under 8 characters
    SSH_AUTH_SOCK: "/tmp/ssh-Xy12/agent.77",
    BUILD_ID: "abcDEF123456789xyz", // not a credential's name
    PATH: "/bin",
  };
  const settings = settingsWith({ provider: { p: { base_url: "http://h/v1", api_key: "k", models: ["m"] } } }, env);
  const secrets = knownSecrets(settings, env);
  for (const name of ["GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "STRIPE_SECRET", "PGPASSWORD"] as const) expect(secrets).toContain(env[name]);
  for (const name of ["PG_PASSWORD", "REDIS_PASSWORD", "TLS_KEY", "AUTH_TOKEN", "SSH_AUTH_SOCK", "BUILD_ID"] as const) expect(secrets).not.toContain(env[name]);
  expect(redact(`printenv: ${env.GITHUB_TOKEN}\npsql -U postgres`, secrets)).toBe(`printenv: ${REDACTED}\npsql -U postgres`);
  expect(toolEnvironment(env, settings, [])).toEqual(env); // gh, aws and npm publish still work
});

test("the commands' environment loses every variable the configuration gives hey as a secret, by name: headers, MCP tokens, client secrets, a proxy's password", () => {
  const env = {
    GW_TOKEN: "gwtokAbCdEfGh",
    GW2: "second-gw-token",
    PART_A: "abc",
    PART_B: "def",
    MCP_TOKEN: "mcp-token-123456",
    MCP_SECRET: "client-secret-1234",
    PROXY_PW: "proxy-password-1",
    PROXY_HOST: "proxy.example",
    TEAM: "core-platform",
    LOG: "debug",
    PATH: "/bin",
  };
  const settings = settingsWith(
    {
      provider: {
        gw: {
          base_url: "http://127.0.0.1:9/v1",
          headers: { Authorization: "Bearer ${GW_TOKEN}", "X-Gateway-Token": "${GW2}", "X-Split-Key": "${PART_A}${PART_B}", "X-Team": "${TEAM}" },
          models: ["m"],
        },
      },
      mcp: {
        gh: { command: "gh-mcp", env: { GITHUB_TOKEN: "${MCP_TOKEN}", LOG_LEVEL: "${LOG}" } },
        web: { url: "http://127.0.0.1:9/mcp", client_id: "app", client_secret: "${MCP_SECRET}" },
      },
      proxy: { url: "http://ana:${PROXY_PW}@${PROXY_HOST}:8080" },
    },
    env,
  );
  expect(toolEnvironment(env, settings, [])).toEqual({ PROXY_HOST: "proxy.example", TEAM: "core-platform", LOG: "debug", PATH: "/bin" });
  expect(toolEnvironment(env, settings, ["GW2"])).toEqual({
    GW2: "second-gw-token",
    PROXY_HOST: "proxy.example",
    TEAM: "core-platform",
    LOG: "debug",
    PATH: "/bin",
  });
});

test("a ${VAR} an MCP server needs as a key is a secret wherever it is written: a url's query, an argument after a credential flag, a variable named as a credential; a host, a path or a log level is not", () => {
  const env = {
    MCPQ: "query-key-11111111",
    ZAP_KEY: "path-key-22222222",
    ARGT: "flag-arg-33333333",
    EQ: "eq-arg-44444444",
    HDR: "header-arg-55555555",
    EXA_API_KEY: "named-key-66666666",
    GWQ: "gw-query-77777777",
    MCP_HOST: "mcp.internal.example",
    PROJECTS: "/srv/projects/main",
    LOG: "debug-verbose",
    HOME: "/home/ana",
    PATH: "/bin",
  };
  const settings = settingsWith(
    {
      provider: { gw: { base_url: "https://${MCP_HOST}/v1?key=${GWQ}", models: ["m"] } },
      mcp: {
        q: { url: "https://${MCP_HOST}:8443/mcp?api_key=${MCPQ}" },
        zap: { url: "https://actions.example/mcp/${ZAP_KEY}/sse" },
        exa: { url: "https://mcp.exa.example/mcp?exaApiKey=literal-key-88888888" },
        cli: {
          command: "server",
          args: [
            "--api-key",
            "${ARGT}",
            "--token=${EQ}",
            "--header",
            "Authorization: Bearer ${HDR}",
            "${EXA_API_KEY}",
            "${HOME}/notes",
            "${PROJECTS}",
            "--log",
            "${LOG}",
          ],
          env: { PATH: "${PATH}:/opt/bin", EXTRA: "${EXA_API_KEY}" },
        },
      },
    },
    env,
  );
  expect(toolEnvironment(env, settings, [])).toEqual({
    MCP_HOST: "mcp.internal.example",
    PROJECTS: "/srv/projects/main",
    LOG: "debug-verbose",
    HOME: "/home/ana",
    PATH: "/bin",
  });
  const known = knownSecrets(settings, env);
  for (const s of [
    "query-key-11111111",
    "path-key-22222222",
    "flag-arg-33333333",
    "eq-arg-44444444",
    "header-arg-55555555",
    "named-key-66666666",
    "gw-query-77777777",
    "literal-key-88888888",
  ])
    expect(known).toContain(s);
  for (const s of ["mcp.internal.example", "/srv/projects/main", "debug-verbose", "/home/ana"]) expect(known).not.toContain(s);
});

describe("streamed text (SPEC §24: no secret shown in pieces)", () => {
  const SECRETS = [KEY, "Bearer gw-token-99999", "gw-token-99999"];
  const TEXT = `your key ${KEY} looks fine; token gw-token-99999 too`;
  const WANT = `your key ${REDACTED} looks fine; token ${REDACTED} too`;

  /** What the redactor shows for these pieces, joined: a piece that showed part of a secret would leave it unredacted. */
  const stream = (pieces: string[]) => {
    const r = streamRedactor(() => SECRETS);
    return pieces.map((p) => r.push(p)).join("") + r.flush();
  };

  test("a secret split at every point across two deltas is never shown", () => {
    for (let i = 0; i <= TEXT.length; i++) {
      expect(stream([TEXT.slice(0, i), TEXT.slice(i)])).toBe(WANT);
    }
  });

  test("…and across three deltas", () => {
    for (let i = 0; i <= TEXT.length; i++)
      for (let j = i; j <= TEXT.length; j++) {
        expect(stream([TEXT.slice(0, i), TEXT.slice(i, j), TEXT.slice(j)])).toBe(WANT);
      }
  });

  test("one character at a time", () => {
    expect(stream([...TEXT])).toBe(WANT);
  });

  test("ordinary text is not held back; a possible secret start only as long as it can be one", () => {
    const r = streamRedactor(() => SECRETS);
    expect(r.push("hello world")).toBe("hello world");
    expect(r.push(" and sk-te")).toBe(" and ");
    expect(r.push("a")).toBe("sk-tea"); // no secret starts "sk-tea"
    expect(r.push(" Bear")).toBe(" "); // "Bearer gw-token-99999"?
    expect(r.push("d")).toBe("Beard");
    expect(r.push(" gw")).toBe(" ");
    expect(r.flush()).toBe("gw"); // the block ended: what was held is shown
  });

  test("redactingOutput: deltas of one block are held back until the next event, and the held tail is flushed then", () => {
    const rec = recordingOutput();
    const out = redactingOutput(rec, () => SECRETS);
    out.emit({ type: "thinking_delta", text: "thinking about sk-test-" });
    out.emit({ type: "text_delta", text: "your key sk-test-0123" });
    out.emit({ type: "text_delta", text: "456789abcdef is fine, sk-" });
    out.emit({
      type: "done",
      stop_reason: "end",
      turns: 1,
      usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 },
    });
    expect(rec.thinking()).toBe("thinking about sk-test-");
    expect(rec.text()).toBe(`your key ${REDACTED} is fine, sk-`);
    expect(rec.sequence()).toEqual(["thinking_delta", "text_delta", "done"]);
    for (const e of rec.of("text_delta")) expect(e.text).not.toContain("sk-test-0123");
  });
});
