// Secrets hey does not know (issue 24): values shaped like credentials in tool results become
// placeholders naming them; ordinary text that merely looks close (hashes, UUIDs, base64 in code,
// `sk-` in prose, references to variables) is left alone. And the tool wrapper around it.
import { describe, expect, test } from "bun:test";
import { redactShapes } from "../../src/config/secret-shapes.ts";
import { base64Cores, redactingTool, type Redaction } from "../../src/config/secrets.ts";
import type { Tool } from "../../src/kernel/tool.ts";

const GHP = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"; // 36 after the prefix
const OPENAI = "sk-proj-" + "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56";
const ANTHROPIC = "sk-ant-api03-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe";
const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFuYSJ9.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

describe("true positives: replaced, named", () => {
  test.each([
    ["a dotenv token line", `GITHUB_TOKEN=${GHP}`, "GITHUB_TOKEN=[secret: GITHUB_TOKEN]"],
    ["as read_file numbers it", `1\tGITHUB_TOKEN=${GHP}\n2\tDEBUG=1`, "1\tGITHUB_TOKEN=[secret: GITHUB_TOKEN]\n2\tDEBUG=1"],
    ["as grep shows it", `.env:3: NPM_TOKEN=npm_0123456789abcdefghijABCDEFGHIJ012345`, ".env:3: NPM_TOKEN=[secret: NPM_TOKEN]"],
    ["export and quotes kept around the placeholder", 'export DB_PASSWORD="correct horse battery staple"', 'export DB_PASSWORD="[secret: DB_PASSWORD]"'],
    ["a *_SECRET with a comment after it", "STRIPE_SECRET=whsec_9f8e7d6c5b4a # rotated in May", "STRIPE_SECRET=[secret: STRIPE_SECRET] # rotated in May"],
    ["a *_KEY", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY=[secret: AWS_SECRET_ACCESS_KEY]"],
    [
      "~/.aws/credentials (spaced, lower case)",
      "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "aws_secret_access_key = [secret: aws_secret_access_key]",
    ],
    ["a YAML password", "  password: 'hunter2hunter2'", "  password: '[secret: password]'"],
    ["a GitHub token in a remote URL", `https://${GHP}@github.com/o/r.git`, "https://[secret: github-token]@github.com/o/r.git"],
    ["a fine-grained GitHub token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "[secret: github-token]"],
    ["an OpenAI key in prose", `the key ${OPENAI} works`, "the key [secret: openai-key] works"],
    ["an Anthropic key", `x-api-key: ${ANTHROPIC}`, "x-api-key: [secret: anthropic-key]"],
    ["a Slack token", "xoxb-2345678901-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "[secret: slack-token]"],
    ["an AWS access key id", "aws_access_key_id AKIAIOSFODNN7EXAMPLE", "aws_access_key_id [secret: aws-access-key-id]"],
    [
      "a Google API key in a URL",
      "https://maps.example/api?key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY&v=3",
      "https://maps.example/api?key=[secret: google-api-key]&v=3",
    ],
    ["a JWT", `Authorization: Bearer ${JWT}`, "Authorization: Bearer [secret: jwt]"],
    [
      "a PEM private key, whole",
      "before\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn\n-----END RSA PRIVATE KEY-----\nafter",
      "before\n[secret: private-key]\nafter",
    ],
    ["a PEM private key cut short", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU", "[secret: private-key]"],
    [
      "a password in a database URL",
      "DATABASE_URL=postgres://admin:urlpw_plain_444444@db.example.com:5432/app",
      "DATABASE_URL=postgres://admin:[secret: url-password]@db.example.com:5432/app",
    ],
    [
      "a password in any URL, in prose",
      "clone https://ana:s3cr3t-pass-777@git.example.com/r.git",
      "clone https://ana:[secret: url-password]@git.example.com/r.git",
    ],
    ["a spaced assignment of a generated value", "AUTH_TOKEN = spaced_plain_666666", "AUTH_TOKEN = [secret: AUTH_TOKEN]"],
    ["a YAML hex key that starts with a letter", "  api_key: f3a9c1d2e4b5a6978877665544332211", "  api_key: [secret: api_key]"],
    ["a spaced hex key", "API_KEY = f3a9c1d2e4b5a6978877665544332211", "API_KEY = [secret: API_KEY]"],
    [
      "a SendGrid key, spaced YAML",
      "SENDGRID_API_KEY: SG.abcdefghijklmnopqrstuv.wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012345678",
      "SENDGRID_API_KEY: [secret: SENDGRID_API_KEY]",
    ],
    ["a SendGrid key anywhere", "sg = SG.abcdefghijklmnopqrstuv.wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123", "sg = [secret: sendgrid-key]"],
    ["a JSON member", '  "client_secret": "9f8e7d6c5b4aXyZw",', '  "client_secret": "[secret: client_secret]",'],
    ["a JSON password, last member", '  "password": "hunter2hunter2"', '  "password": "[secret: password]"'],
    ["a camelCase name in an object literal", '  clientSecret: "Zx9Yw8Vu7Ts6Rq5Po4Nm",', '  clientSecret: "[secret: clientSecret]",'],
    ["a JSON password with a comma", '  "password": "hunter2hunter2",', '  "password": "[secret: password]",'],
    ["a JSON apiKey", '  "apiKey": "Xk29fLq8Pz",', '  "apiKey": "[secret: apiKey]",'],
    ["a JSON password of a word and signs", '  "dbPassword": "S3cr3t!Pass"', '  "dbPassword": "[secret: dbPassword]"'],
    ["a JSON token", '  "authToken": "f3a9c1d2e4b5a697",', '  "authToken": "[secret: authToken]",'],
    ["a *_PWD line", "DB_PWD=s3cretPassw0rd", "DB_PWD=[secret: DB_PWD]"],
    ["a PGPASSWORD line (a password's name run together)", "export PGPASSWORD=Secr3tPass99", "export PGPASSWORD=[secret: PGPASSWORD]"],
    ["an *_AUTH line", "BASIC_AUTH=ana:hunter2hunter2", "BASIC_AUTH=[secret: BASIC_AUTH]"],
    // quoted secrets in YAML (docker-compose, CI, Rails' database.yml) and dotenv stay hidden beside the locale files below
    ["a docker-compose password", '      POSTGRES_PASSWORD: "s3cr3t!pass"', '      POSTGRES_PASSWORD: "[secret: POSTGRES_PASSWORD]"'],
    ["a dotenv password, quoted", 'DB_PASSWORD="hunter2xyz9"', 'DB_PASSWORD="[secret: DB_PASSWORD]"'],
    ["a YAML password of letters, digits and signs", '  password: "Tr0ub4dor&3"', '  password: "[secret: password]"'],
    ["a YAML key, quoted", `  api_key: "${OPENAI}"`, '  api_key: "[secret: api_key]"'],
    ["a CI secret in a YAML env block", "    env:\n      NPM_TOKEN: 'npmTok3nValue99'", "    env:\n      NPM_TOKEN: '[secret: NPM_TOKEN]'"],
    ["a database.yml password, snake_case and quoted", '  password: "pg_Secret_2024"', '  password: "[secret: password]"'],
  ])("%s", (_, text, want) => {
    expect(redactShapes(text)).toBe(want);
  });
});

test("a line padded with a megabyte of blanks is read in one pass: its value found, the blanks kept", () => {
  const blanks = " ".repeat(1 << 20);
  expect(redactShapes(`status: ok${blanks}x\nnext: line`)).toBe(`status: ok${blanks}x\nnext: line`);
  expect(redactShapes(`API_TOKEN=Zx9Yw8Vu7Ts6Rq5Po4Nm${blanks}\n`)).toBe(`API_TOKEN=[secret: API_TOKEN]${blanks}\n`);
});

describe("false positives: left alone", () => {
  test.each([
    ["a git commit hash", "commit 3f786850e387550fdab836ed7e6dc881de23001b"],
    ["a sha256 sum", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt"],
    ["a UUID", "id: 123e4567-e89b-12d3-a456-426614174000"],
    ["base64 in code", 'const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";'],
    ["sk- in prose", "sk-learn is the old name of scikit-learn; see the sk-learn-compat-shim project"],
    ["a hyphenated name after sk-", "sk-release-candidate-notes-2024"],
    ["a variable reference", "API_KEY=${OPENAI_API_KEY}"],
    ["code reading the environment", "const API_KEY = process.env.API_KEY;"],
    ["Python reading the environment", 'API_KEY = os.environ["API_KEY"]'],
    ["an attribute, spaced", "api_key = config.api_key"],
    ["a plain variable, spaced", "token = refresh_token_value"],
    ["a short sample value", "PASSWORD=secret"],
    ["the working directory", "PWD=/home/ana/src/app"],
    ["a YAML key named key", "- key: app.kubernetes.io/name-2"],
    ["a public key line", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC0 ana@host"],
    ["a PEM public certificate", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"],
    ["a URL with a token parameter name only", "see https://example.com/?token=abc"],
    ["a placeholder already there", "GITHUB_TOKEN=[secret: GITHUB_TOKEN]"],
    ["a placeholder already there, quoted", 'api_key = "[redacted]"\ntoken: "[secret: github-token]"'],
    ["a call, spaced", "const token = getToken();"],
    ["a TypeScript field type", "  password: string;"],
    ["a property read", "const apiKey = config.apiKey;"],
    ["an attribute of a settings object", "api_key = settings.API_KEY_V2"],
    ["a name with a few digits", "secret_key = sha256_hash"],
    ["a URL with a user and no password", "git clone https://ana@github.com/o/r.git"],
    ["a URL's port", "http://localhost:8080/path@v2"],
    ["a URL password that is a reference", "DATABASE_URL=postgres://app:${DB_PASSWORD}@db/app"],
    ["a URL password that is a sample", "postgres://user:PASSWORD@host/db and postgres://user:password@host/db"],
    ["a short URL password", "redis://:pw@localhost:6379"],
    ["an enum member named after itself", '  API_KEY_AUTH = "API_KEY_AUTH",'],
    ["a sample in documentation", "export GOOGLE_API_KEY='your-api-key'"],
    ["a JSON sample", '  "id_token": "HEADER.PAYLOAD.SIGNATURE",'],
    ["words in an object literal", '  auth: "git-credential login logout refresh",'],
    ["a test's form values", '  password: "different",\n  confirmPassword: "password",'],
    ["a camelCase name that holds no secret", '  primaryKey: "organization_id",\n  monkey = "banana_bread_2"'],
    ["the working directory, spaced", "PWD = /home/ana/src/app"],
    ["a run-together name in lower case is code, not a variable", "  mypassword = isVisible"],
    // translation files (de.json, es.json) and validation rules: words and rules, not keys
    ["a German translation", '  "password": "Passwort",\n  "confirmPassword": "Bestätigen",\n  "apiKey": "API-Schlüssel",'],
    ["a Spanish translation, last member", '  "password": "Contraseña"'],
    ["an English label of words", '  "newPassword": "New-Password",\n  "resetToken": "Reset-Link."'],
    ["a validation rule", '  "authToken": "required",\n  "password": "required|min:8",\n  "apiKey": "nullable|string"'],
    ["a camelCase name holding a word", '  apiKey: "Schlüssel-Datei"\n  userPassword = "Passwort"'],
    // Rails/YAML locale files (config/locales/de.yml), and JSON labels with `/` and `_`
    ["a Rails locale (Devise)", 'de:\n  devise:\n    password: "Passwort"\n    reset_password_token: "Token-Zuruecksetzen"'],
    ["a YAML locale, single quotes and a sentence", "en:\n  password: 'Password'\n  access_token: 'Access token'\n  secret: 'Geheimnis'"],
    ["JSON labels with / and _", '  "password": "E-Mail/Password",\n  "accessToken": "Access_Token"'],
  ])("%s", (_, text) => {
    expect(redactShapes(text)).toBe(text);
  });
});

test("base64Cores: a secret inside any base64 output, at any byte offset, contains one of its cores", () => {
  const secret = "sk-test-0123456789abcdef0123";
  const cores = base64Cores(secret);
  for (const before of ["", "A", "AB", "HOME=/h\0OPENAI_API_KEY="]) {
    const b64 = Buffer.from(`${before}${secret}\0PATH=/bin`).toString("base64");
    expect(cores.some((c) => b64.includes(c))).toBe(true);
  }
  expect(cores.every((c) => c.length >= 30)).toBe(true);
});

describe("redactingTool", () => {
  const echo: Tool = {
    name: "read_file",
    description: "",
    parameters: {},
    run: async (args) => ({ output: String(args.text), images: [{ type: "image", mediaType: "image/png", data: "AKIAIOSFODNN7EXAMPLE" }] }),
  };
  const writer: Tool = { name: "write_file", description: "", parameters: {}, run: async () => ({ output: "written" }) };
  const ctx = { signal: new AbortController().signal, cwd: "/" };
  const redaction = (shapes: boolean): Redaction => ({ secrets: () => ["known-secret-value"], shapes: () => shapes, shown: new Set() });

  test("hides known secrets and shapes in the text, never touches image data", async () => {
    const r = redaction(true);
    const out = await redactingTool(echo, r).run({ text: `GITHUB_TOKEN=${GHP}\nknown-secret-value` }, ctx);
    expect(out.output).toBe("GITHUB_TOKEN=[secret: GITHUB_TOKEN]\n[redacted]");
    expect(out.images?.[0]?.data).toBe("AKIAIOSFODNN7EXAMPLE");
    expect([...r.shown]).toEqual(["[redacted]", "[secret: GITHUB_TOKEN]"]);
  });

  test("[tools] redact_secrets = false: only the secrets hey knows", async () => {
    const out = await redactingTool(echo, redaction(false)).run({ text: `GITHUB_TOKEN=${GHP}` }, ctx);
    expect(out.output).toBe(`GITHUB_TOKEN=${GHP}`);
  });

  test("a file is never written back with a placeholder shown this run in place of its value", async () => {
    const r = redaction(true);
    await redactingTool(echo, r).run({ text: `GITHUB_TOKEN=${GHP}` }, ctx);
    const refused = await redactingTool(writer, r).run({ path: ".env", content: "GITHUB_TOKEN=[secret: GITHUB_TOKEN]\nDEBUG=1\n" }, ctx);
    expect(refused).toEqual({
      isError: true,
      output:
        "write_file: content holds [secret: GITHUB_TOKEN], which stands for a value hey hid from you; writing it would put that text in the file in place of the real value. Change only the lines you mean to with edit (old_string and new_string from those lines, without the placeholder): the rest of the file, its values too, stays as it is; not written",
    });
    // a placeholder hey did not show (documentation about them) is ordinary text
    expect(await redactingTool(writer, r).run({ path: "README.md", content: "shown as [secret: NPM_TOKEN]" }, ctx)).toEqual({ output: "written" });
  });

  test("a translation file (JSON, Rails YAML) reads as it is, and is written back whole with a change", async () => {
    const r = redaction(true);
    const de = '{\n  "password": "Passwort",\n  "confirmPassword": "Bestätigen",\n  "apiKey": "API-Schlüssel",\n  "authToken": "required"\n}\n';
    expect((await redactingTool(echo, r).run({ text: de }, ctx)).output).toBe(de);
    const added = de.replace("{\n", '{\n  "username": "Benutzername",\n');
    expect(await redactingTool(writer, r).run({ path: "de.json", content: added }, ctx)).toEqual({ output: "written" });
    const yml = 'de:\n  devise:\n    password: "Passwort"\n    reset_password_token: "Token-Zuruecksetzen"\n';
    expect((await redactingTool(echo, r).run({ text: yml }, ctx)).output).toBe(yml);
    const fixed = yml.replace("Token-Zuruecksetzen", "Passwort-Token");
    expect(await redactingTool(writer, r).run({ path: "config/locales/de.yml", content: fixed }, ctx)).toEqual({ output: "written" });
  });
});

// redactShapes looks for each form's word or prefix first and skips the form when a piece has none
// (most output: ~0.3 s less a 45 MB saved output): each is still found alone in 1 MB of plain lines.
test("each form is found alone in 1 MB of lines that hold no other", () => {
  const lines = Array.from({ length: 40_000 }, (_, i) => `[${i}] compiling src/app/main.ts ok`).join("\n");
  const forms: [string, string][] = [
    [`TOKEN ${GHP}`, "[secret: github-token]"],
    [`key ${OPENAI}`, "[secret: openai-key]"],
    ["AWS AKIAQ3EGRSLNEXDSTZ4P", "[secret: aws-access-key-id]"],
    ["db postgres://app:Xk29fLq0pZ7w@db.internal:5432/app", "postgres://app:[secret: url-password]@db.internal"],
    ["curl -H 'Proxy-Authorization: basic dXNlcjpwYXNzd29yZDEyMzQ1Ng'", "Proxy-Authorization: basic [secret: authorization]"],
    ["- name: DB_PASSWORD\n  value: Xk29fLq0pZ7wQ", "value: [secret: DB_PASSWORD]"],
    ["machine api.example.com login ana password Xk29fLq0pZ7wQ", "password [secret: password]"],
    ["setenv API_TOKEN Xk29fLq0pZ7wQ", "setenv API_TOKEN [secret: API_TOKEN]"],
    ["export DB_PWD=Xk29fLq0pZ7wQ", "DB_PWD=[secret: DB_PWD]"],
  ];
  for (const [form, hidden] of forms) expect(redactShapes(`${lines}\n${form}\n${lines}\n`)).toContain(hidden);
});
