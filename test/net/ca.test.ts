// The CAs model requests trust: Bun's store (which reads SSL_CERT_FILE and SSL_CERT_DIR itself) plus [network] ca_file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getCACertificates } from "node:tls";
import { mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { NetConfigError } from "../../src/net/proxy.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import { splitPem, trustedCas, withUnreadCas } from "../../src/net/ca.ts";
import { NetError } from "../../src/net/errors.ts";
import { tempDir } from "../helpers/e2e.ts";

const cert = (body: string) => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;

let dir: ReturnType<typeof tempDir>;
beforeAll(() => (dir = tempDir()));
afterAll(() => dir.remove());

describe("splitPem", () => {
  test("every certificate of a bundle, in order; CRLF, comments and keys left out", () => {
    const text = `# corp\r\n${cert("AAA")}\r\n-----BEGIN PRIVATE KEY-----\nKKK\n-----END PRIVATE KEY-----\nsubject=x\n${cert("BBB")}\n`;
    expect(splitPem(text)).toEqual([`${cert("AAA")}\n`, `${cert("BBB")}\n`]);
    expect(splitPem("nothing here")).toEqual([]);
  });
});

describe("withUnreadCas: a TLS error says which CA variable is set but adds no CA (x68)", () => {
  test.each<[string, (d: string) => Record<string, string>, string | ((d: string) => string) | undefined]>([
    [
      "a file that does not exist",
      () => ({ SSL_CERT_FILE: "/nonexistent/ca.pem" }),
      "SSL_CERT_FILE=/nonexistent/ca.pem is set but cannot be read (ENOENT: no such file or directory), so it adds no CA",
    ],
    ["a file with no certificate", (d) => ({ NODE_EXTRA_CA_CERTS: join(d, "notes.txt") }), "holds no PEM certificate"],
    ["a directory given as a file", (d) => ({ SSL_CERT_FILE: d }), "cannot be read (EISDIR: it is a directory)"],
    ["an empty certificate directory", (d) => ({ SSL_CERT_DIR: join(d, "empty") }), "is an empty directory"],
    ["a certificate file that reads", (d) => ({ SSL_CERT_FILE: join(d, "good.pem"), SSL_CERT_DIR: d }), undefined],
    // OpenSSL, and so the runtime, reads SSL_CERT_DIR as a list
    ["a list of certificate directories that all read", (d) => ({ SSL_CERT_DIR: `${d}${delimiter}${join(d, "certs")}` }), undefined],
    [
      "a list naming a directory that does not exist",
      (d) => ({ SSL_CERT_DIR: `${d}${delimiter}/nonexistent/certs` }),
      (d) => `/nonexistent/certs of SSL_CERT_DIR=${d}${delimiter}/nonexistent/certs cannot be read (ENOENT: no such file or directory), so it adds no CA`,
    ],
    [
      "a list naming a directory whose certificates are only in subdirectories (the runtime reads none there)",
      (d) => ({ SSL_CERT_DIR: `${join(d, "certs")}${delimiter}${join(d, "nested")}` }),
      (d) => `${join(d, "nested")} of SSL_CERT_DIR=${join(d, "certs")}${delimiter}${join(d, "nested")} holds no PEM certificate file`,
    ],
  ])("%s", (_, envOf, said) => {
    mkdirSync(join(dir.path, "empty"), { recursive: true });
    mkdirSync(join(dir.path, "certs"), { recursive: true });
    writeFileSync(join(dir.path, "certs", "a1b2c3d4.0"), cert("CCC"));
    mkdirSync(join(dir.path, "nested", "mozilla"), { recursive: true });
    writeFileSync(join(dir.path, "nested", "mozilla", "Root_CA.crt"), cert("DDD"));
    writeFileSync(join(dir.path, "notes.txt"), "no certificate here\n");
    writeFileSync(join(dir.path, "good.pem"), cert("AAA"));
    const failure = new NetError("tls", "the TLS certificate of h is not signed by a CA hey trusts");
    const told = withUnreadCas(failure, envOf(dir.path));
    if (said === undefined) expect(told).toBe(failure);
    else {
      expect(told.message).toStartWith(`${failure.message} — `);
      expect(told.message).toContain(typeof said === "function" ? said(dir.path) : said);
    }
  });
});

describe("trustedCas", () => {
  test("no ca_file: undefined, so fetch keeps its default store (SSL_CERT_FILE and SSL_CERT_DIR are the runtime's, read by it)", () => {
    expect(trustedCas({})).toBeUndefined();
  });

  test("ca_file is added to all the runtime trusts — its bundle, NODE_EXTRA_CA_CERTS and OpenSSL's paths (SSL_CERT_FILE, SSL_CERT_DIR) — not put in their place", () => {
    const a = join(dir.path, "a.pem");
    writeFileSync(a, cert("AAA") + "\n" + cert("AAB"));
    const cas = trustedCas({ caFile: a })!;
    const runtime = new Set([...getCACertificates("default"), ...getCACertificates("system")]);
    expect(cas.length).toBe(runtime.size + 2);
    expect(cas.filter((c) => runtime.has(c)).length).toBe(runtime.size);
    expect(cas.slice(-2)).toEqual([`${cert("AAA")}\n`, `${cert("AAB")}\n`]);
  });

  test("an unreadable ca_file or one without a certificate is a configuration error naming the setting", () => {
    expect(() => trustedCas({ caFile: "/nonexistent.pem", caFileSource: "[network] ca_file in /c.toml" })).toThrow(
      new NetConfigError("[network] ca_file in /c.toml: cannot read /nonexistent.pem (ENOENT)"),
    );
    const empty = join(dir.path, "empty.pem");
    writeFileSync(empty, "");
    expect(() => trustedCas({ caFile: empty })).toThrow(`[network] ca_file: ${empty} holds no PEM certificate`);
  });

  test("a ca_file that is a directory (/etc/ssl/certs) points at SSL_CERT_DIR", () => {
    expect(() => trustedCas({ caFile: dir.path })).toThrow(
      `[network] ca_file: cannot read ${dir.path} (EISDIR): it is a directory — give one PEM file (a bundle) here, or point SSL_CERT_DIR at a directory of hashed certificates`,
    );
  });
});

describe("[network] ca_file, a provider's insecure and compatibility flags in the config", () => {
  const resolve = (toml: string, env = {}, project = false) =>
    resolveConfig([{ source: "/home/a/.config/hey/config.toml", data: Bun.TOML.parse(toml) as Record<string, unknown>, project }], env, {});

  test.each([
    ["/etc/ssl/corp.pem", "/etc/ssl/corp.pem"],
    ["corp.pem", "/home/a/.config/hey/corp.pem"],
    ["~/certs/corp.pem", "/home/a/certs/corp.pem"],
  ])("ca_file %s is %s", (value, path) => {
    expect(resolve(`[network]\nca_file = "${value}"`, { HOME: "/home/a" }).settings.network).toEqual({
      caFile: path,
      caFileSource: "[network] ca_file in /home/a/.config/hey/config.toml",
    });
  });

  test("insecure is read per provider and warned about when that provider is used", () => {
    const { settings, warnings } = resolve('[provider.lab]\nbase_url = "https://lab:8443/v1"\nmodels = ["m"]\ninsecure = true');
    expect(settings.provider.insecure).toBe(true);
    expect(warnings).toEqual([
      "/home/a/.config/hey/config.toml: [provider.lab] insecure = true: TLS certificates of https://lab:8443/v1 are NOT verified; anyone on the network path can read and change what hey sends and receives",
    ]);
  });

  test("compatibility flags are read per provider and their values checked", () => {
    const table = '[provider.lab]\nbase_url = "https://lab/v1"\nmodels = ["m"]\n';
    const flags = 'max_tokens_field = "max_completion_tokens"\nsystem_role = "developer"\nreasoning_replay = false\nparallel_tool_calls = false';
    expect(resolve(table + flags).settings.provider.compat).toEqual({
      maxTokensField: "max_completion_tokens",
      systemRole: "developer",
      reasoningReplay: false,
      parallelToolCalls: false,
    });
    expect(resolve(table).settings.provider.compat).toBeUndefined();
    expect(() => resolve(table + 'system_role = "admin"')).toThrow('[provider.lab] system_role must be one of system, developer, got "admin"');
  });

  test("insecure in a project's config, and [network] insecure, are errors", () => {
    expect(() => resolve('[provider.lab]\nbase_url = "https://lab/v1"\nmodels = ["m"]\ninsecure = false', {}, true)).toThrow(
      "insecure is not accepted in a project's config",
    );
    expect(() => resolve("[network]\ninsecure = true")).toThrow("certificate checks can be skipped per provider only");
  });

  test("ca_file in a project's config is an error naming its file and line, reported with an insecure beside it", () => {
    const project = (toml: string) => () =>
      resolveConfig([{ source: "/p/.hey/config.toml", data: Bun.TOML.parse(toml) as Record<string, unknown>, text: toml, project: true }], {}, {});
    expect(project('[agent]\nmax_turns = 3\n[network]\nca_file = "mitm.pem"')).toThrow(
      "/p/.hey/config.toml:4: [network] ca_file is not accepted in a project's config; set it in your user config or a --config file",
    );
    expect(project('[provider.lab]\nbase_url = "https://lab/v1"\nmodels = ["m"]\ninsecure = true\n[network]\nca_file = "mitm.pem"')).toThrow(
      [
        "/p/.hey/config.toml:4: [provider.lab] insecure is not accepted in a project's config; set it in your user config or a --config file",
        "/p/.hey/config.toml:6: [network] ca_file is not accepted in a project's config; set it in your user config or a --config file",
      ].join("\n"),
    );
  });
});
