// The public half of hey's release key (SPEC §20, issue 29): `hey upgrade` trusts a SHA256SUMS only
// when SHA256SUMS.sig is this key's signature of it (signature.ts). The private half exists only in
// the release workflow's secret HEY_RELEASE_SIGNING_KEY (scripts/sign.ts signs with it). The same
// key is written into scripts/install.sh and the README; test/upgrade/signature.test.ts holds the
// three to one key, and `bun scripts/sign.ts --rotate NEW.pem` rewrites all three.
//
// Tests build a binary that trusts the test key instead (test/fixtures/release/, whose private half
// is public by design): scripts/build.ts defines HEY_RELEASE_KEY for that build only.

declare const HEY_RELEASE_KEY: string | undefined;

/** The key every published release is signed with, as an OpenSSH public key line. */
export const PRODUCTION_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPp76BjQc9uCelm8Y7rGjYbNQ2U/POINy1qXbPh+2ODS hey-release";

/** The key this binary trusts: the production key, unless the build named another (tests). */
export const RELEASE_KEY: string = typeof HEY_RELEASE_KEY === "string" ? HEY_RELEASE_KEY : PRODUCTION_KEY;
