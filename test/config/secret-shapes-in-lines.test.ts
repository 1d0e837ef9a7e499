// x78: a credential is hidden wherever a tool or a format puts its assignment (a diff line, a YAML
// list, a Dockerfile, grep's context lines, one-line JSON, k8s name/value pairs) and in the
// credential files users keep (.netrc, .npmrc, Authorization headers, Azure connection strings);
// values that say what they are (paths, dated cache keys, publishable keys, fixtures, translations)
// are kept. The explorer's bytes, from /tmp/x78.
import { expect, test } from "bun:test";
import { redactShapes } from "../../src/config/secret-shapes.ts";

const V = "Zz1yXx2wVv3uUt4sSr5qQp6oOn7mMl8k";

test.each([
  // a diff or git log -p of a committed .env
  [`+GITHUB_TOKEN=Gh4jK7lM0nP3qR6sT9uV2wX5yZ8aB1cD`, "+GITHUB_TOKEN=[secret: GITHUB_TOKEN]"],
  [`-DB_PASSWORD=${V}`, "-DB_PASSWORD=[secret: DB_PASSWORD]"],
  [`+  password: ${V}`, "+  password: [secret: password]"],
  [`+    "apiKey": "${V}",`, '+    "apiKey": "[secret: apiKey]",'],
  // compose, Dockerfile, shells
  ["      - POSTGRES_PASSWORD=Pg7hJ0kL3mN6pQ9rS2tU5vW8xY1zA4bC", "      - POSTGRES_PASSWORD=[secret: POSTGRES_PASSWORD]"],
  ["ARG NPM_TOKEN=Np2qR5sT8uV1wX4yZ7aB0cD3eF6gH9jK", "ARG NPM_TOKEN=[secret: NPM_TOKEN]"],
  ["ENV STRIPE_SECRET_KEY=Sk3tU6vW9xY2zA5bC8dE1fG4hJ7kL0mN", "ENV STRIPE_SECRET_KEY=[secret: STRIPE_SECRET_KEY]"],
  [`RUN export NPM_TOKEN=${V} && npm ci`, "RUN export NPM_TOKEN=[secret: NPM_TOKEN] && npm ci"],
  [`docker run -e DB_PASSWORD=${V} postgres`, "docker run -e DB_PASSWORD=[secret: DB_PASSWORD] postgres"],
  [`GITHUB_TOKEN=${V} npm publish`, "GITHUB_TOKEN=[secret: GITHUB_TOKEN] npm publish"],
  [`declare -x GITHUB_TOKEN="${V}"`, 'declare -x GITHUB_TOKEN="[secret: GITHUB_TOKEN]"'],
  [`setenv GITHUB_TOKEN ${V}`, "setenv GITHUB_TOKEN [secret: GITHUB_TOKEN]"],
  [`$env:GITHUB_TOKEN="${V}"`, '$env:GITHUB_TOKEN="[secret: GITHUB_TOKEN]"'],
  [`# GITHUB_TOKEN=${V}`, "# GITHUB_TOKEN=[secret: GITHUB_TOKEN]"],
  [`export FOO=1 GITHUB_TOKEN=${V}`, "export FOO=1 GITHUB_TOKEN=[secret: GITHUB_TOKEN]"],
  // dotted names, one-line objects, calls, XML
  ["spring.datasource.password=Sp9rS2tU5vW8xY1zA4bC7dE0fG3hJ6kL", "spring.datasource.password=[secret: password]"],
  [`db.password = ${V}`, "db.password = [secret: password]"],
  ['DB = {"user": "app", "password": "Mn4bVc7xZl1kJh8gFd5sAp2oIu9yTr6e"}', 'DB = {"user": "app", "password": "[secret: password]"}'],
  ['client = OpenAI(api_key="Qw7eRt4yUi1oPa8sDf5gHj2kLz9xCv6b")', 'client = OpenAI(api_key="[secret: api_key]")'],
  ['db = { user = "app", password = "Hx7rTq9LmZ2pWv4K" }', 'db = { user = "app", password = "[secret: password]" }'],
  [`{"env":{"GITHUB_TOKEN":"${V}"}}`, '{"env":{"GITHUB_TOKEN":"[secret: GITHUB_TOKEN]"}}'],
  [`<password>${V}</password>`, "<password>[secret: password]</password>"],
  [`<add key="ApiKey" value="${V}" />`, '<add key="ApiKey" value="[secret: ApiKey]" />'],
  ['SERVICE_JSON="{\n  \\"client_secret\\": \\"Hx7rTq9LmZ2pWv4K\\"\n}"', 'SERVICE_JSON="{\n  \\"client_secret\\": \\"[secret: client_secret]\\"\n}"'],
  // docker inspect, k8s and ECS environments
  ['    "Env": [\n        "POSTGRES_PASSWORD=Pq8wEr5tYu2iOp7A",', '    "Env": [\n        "POSTGRES_PASSWORD=[secret: POSTGRES_PASSWORD]",'],
  ["        - name: DB_PASSWORD\n          value: Hx7rTq9LmZ2pWv4K", "        - name: DB_PASSWORD\n          value: [secret: DB_PASSWORD]"],
  ['{"name": "DB_PASSWORD", "value": "Hx7rTq9LmZ2pWv4K"}', '{"name": "DB_PASSWORD", "value": "[secret: DB_PASSWORD]"}'],
  // grep: hey's context lines, and grep -r without numbers
  ["stripe.env-2- STRIPE_SECRET=Zq8wXe7cRv6bTn5yMu4iKo3lPa2sDf1g", "stripe.env-2- STRIPE_SECRET=[secret: STRIPE_SECRET]"],
  ["./.env-3-STRIPE_SECRET=Zx9kQ2mN7pL4vB8wR3tY6uI1oP5aS0dF", "./.env-3-STRIPE_SECRET=[secret: STRIPE_SECRET]"],
  ["./.env:GITHUB_TOKEN=Zx9kQ2mN7pL4vB8wR3tY6uI1oP5aS0dF", "./.env:GITHUB_TOKEN=[secret: GITHUB_TOKEN]"],
  [`HEAD:app.env:GITHUB_TOKEN=${V}`, "HEAD:app.env:GITHUB_TOKEN=[secret: GITHUB_TOKEN]"],
  // credential files
  ["//registry.npmjs.org/:_authToken=Zx9kQ2mN7pL4vB8wR3tY6uI1oP5aS0dF", "//registry.npmjs.org/:_authToken=[secret: _authToken]"],
  ["//art.example.com/api/npm/:_auth=YWxpY2U6SHg3clRxOUxtWjJwV3Y0Sw==", "//art.example.com/api/npm/:_auth=[secret: _auth]"],
  ["machine api.example.com login alice password Hx7rTq9LmZ2pWv4K", "machine api.example.com login alice password [secret: password]"],
  ["machine api.example.com\n  login alice\n  password Hx7rTq9LmZ2pWv4K", "machine api.example.com\n  login alice\n  password [secret: password]"],
  [
    'curl -H "Authorization: Bearer Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z" https://api.internal/v1/things',
    'curl -H "Authorization: Bearer [secret: authorization]" https://api.internal/v1/things',
  ],
  [
    "http.https://github.com/.extraheader=AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Wng5a1EybU43cEw0dkI4d1Iz",
    "http.https://github.com/.extraheader=AUTHORIZATION: basic [secret: authorization]",
  ],
  [
    "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Kk9jJh8gGf7dDs6aAp5oOi4uUy3tTr2eEw1qQ==;EndpointSuffix=core.windows.net",
    "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[secret: AccountKey];EndpointSuffix=core.windows.net",
  ],
  ["SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/Zx9kQ2mN7pL4vB8wR3tY6uI1", "SLACK_WEBHOOK_URL=[secret: slack-webhook]"],
  ["xapp-1-A0ABCDEF1-1234567890123-abcdef0123456789abcdef0123456789abcdef0123456789", "[secret: slack-token]"],
  ["sk_test_51Hx7rTq9LmZ2pWv4KZx9kQ2mN7pL4vB8wR3tY6", "[secret: stripe-key]"],
  ["whsec_Zx9kQ2mN7pL4vB8wR3tY6uI1oP5aS0dF", "[secret: stripe-key]"],
  ["pypi-AgEIcHlwaS5vcmcCJGE0ZjM5ZDYxLTQ1NmEtNDk5Yi1hYjQ2ZTBmYzYxN2Q5NzcyAAIqWzMsImY0", "[secret: pypi-token]"],
])("hidden: %s", (text, want) => {
  expect(redactShapes(text)).toBe(want);
});

test.each([
  "SSH_KEY=~/.ssh/id_ed25519",
  "S3_KEY=uploads/2024/report.csv",
  'OBJECT_KEY: "images/avatar-1234.png"',
  "CACHE_KEY=v2-deps-2024-01-15",
  "IDEMPOTENCY_KEY=order-2024-0001",
  "SORT_KEY=created_at_2024",
  "foreign_key: user_id_2024",
  "NEXT_PAGE_TOKEN=CAESBggBEAEYAQ",
  "STRIPE_PUBLISHABLE_KEY=pk_live_51Hx7rTq9LmZ2pWv4K",
  "RECAPTCHA_SITE_KEY=6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI",
  '  expect(isKey("sk-proj-abcdefghij1234567890ABCD")).toBe(true);',
  'test("rejects sk-1234567890abcdefghijklmn", ...)',
  'new_password: "Neues Passwort 2"',
  'password: "Mein Passwort 12"',
  '"token": "sha1-Zx9kQ2mN7pL4vB8wR3tY6uI1oP5a="',
  // what must stay as it was: code, and names that hold no credential before one that does
  "let token = nextToken2(lexer);",
  "const token = makeToken(user_id_2024_01);",
  "if (password == other_password_value) {}",
])("kept: %s", (text) => {
  expect(redactShapes(text)).toBe(text);
});

test("a value after a name that holds no credential is read again: --build-arg=NPM_TOKEN=…", () => {
  expect(redactShapes(`docker build --build-arg=NPM_TOKEN=${V} .`)).toBe("docker build --build-arg=NPM_TOKEN=[secret: NPM_TOKEN] .");
});

test("a megabyte line with an Authorization header in it is read in one pass", () => {
  const blanks = " ".repeat(1 << 20);
  const line = `Authorization:${blanks}Bearer x`;
  for (let i = 0; i < 300; i++) redactShapes("Authorization: Bearer Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"); // the regex JIT's warm path
  expect(redactShapes(line)).toBe(line);
});
