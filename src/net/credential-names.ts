// Which names say their value is a credential — a dotenv or environment variable, a camelCase key,
// a flag, a header, a query key — for the secret redaction (config/secret-shapes.ts), the values a
// config would send (config/secret-variables.ts) and the headers a redirect to another origin drops
// (net/redirects.ts). Here, below both, so the network code needs nothing of the configuration's. Pure.

/**
 * A `NAME=value` line whose name says it holds a credential: `GITHUB_TOKEN=…`, `export
 * AWS_SECRET_ACCESS_KEY=…`, `DB_PASSWORD="…"`, `aws_secret_access_key = …` (~/.aws/credentials).
 */
export const SECRET_NAME =
  /^(?:[A-Za-z0-9]+_)*(?:(?:API|SECRET|ACCESS|PRIVATE|CLIENT)?_?KEY|(?:AUTH|ACCESS|REFRESH|BEARER|SESSION)?_?TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH)$|^[A-Za-z0-9]+_PWD$/i;
/** A password's or credentials' name run together, upper case as a variable's is: `PGPASSWORD`, `MYSQLPASSWD`; not `showPassword`. */
export const SECRET_SUFFIX = /^[A-Z][A-Z0-9]*(?:PASSWORD|PASSWD|CREDENTIALS)$/;
/** The same names in camelCase (`clientSecret`, `apiKey`, `dbPassword`), case and all: `monkey` and `primaryKey` are no such name. */
const SECRET_CAMEL =
  /^(?:[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*)?(?:[aA]piKey|[aA]ccountKey|[sS]ecretKey|[pP]rivateKey|[aA]ccessKey|[tT]oken|[sS]ecret|[pP]assword|[pP]asswd|[cC]redentials?)$/;

/** Whether `name` says it holds a credential, as a dotenv or camelCase name: `GITHUB_TOKEN`, `api_key`, `clientSecret`; not `MAX_TOKENS`, `token_file`. */
export const secretName = (name: string) => SECRET_NAME.test(name) || SECRET_SUFFIX.test(name) || SECRET_CAMEL.test(name);

/** Whether a name says its value is a credential: `Authorization`, `Cookie`, and the names redactShapes reads (`X-Api-Key`, `GITHUB_TOKEN`, `--api-key`, `exaApiKey`); not `--token-file`, `--author`, `MAX_TOKENS`. */
export const credentialName = (name: string) => /^(?:proxy-)?authorization$|^cookie$/i.test(name) || secretName(name.replace(/^-+/, "").replace(/-/g, "_"));
