// Release signatures (SPEC §20, issue 29): every release's SHA256SUMS is signed with hey's Ed25519
// release key, and `hey upgrade` and install.sh trust a checksum only after the signature checks
// out. Pure: bytes and text in, a verdict out (WebCrypto does the Ed25519 and SHA-512 math).
//
// The signature file, SHA256SUMS.sig, is an OpenSSH signature (PROTOCOL.sshsig, the format of
// `ssh-keygen -Y sign`), so users can check it by hand with the ssh-keygen macOS and Linux ship:
//   ssh-keygen -Y verify -f allowed_signers -I hey-release -n hey-release -s SHA256SUMS.sig < SHA256SUMS
// What the key signs is not SHA256SUMS itself but this blob (all strings are uint32 length + bytes):
//   "SSHSIG" string(namespace) string("") string("sha512") string(SHA-512 of SHA256SUMS)
// and the file holds, base64 between armour lines:
//   "SSHSIG" uint32(1) string(public key) string(namespace) string("") string("sha512")
//   string(string("ssh-ed25519") string(64-byte Ed25519 signature))
// install.sh rebuilds the blob with printf to verify with openssl where ssh-keygen is missing.

/** The namespace every hey release signature is made for (ssh-keygen -n): a signature made for
 * anything else (a git commit, a file signed with the same key) is not a release signature. */
export const SIG_NAMESPACE = "hey-release";
/** The principal install.sh and the README's allowed_signers line name the key by. */
export const SIG_PRINCIPAL = "hey-release";

const MAGIC = "SSHSIG";
const KEY_TYPE = "ssh-ed25519";
const ARMOR_BEGIN = "-----BEGIN SSH SIGNATURE-----";
const ARMOR_END = "-----END SSH SIGNATURE-----";
/** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410), before the 32 key bytes: the
 * `-----BEGIN PUBLIC KEY-----` form openssl reads. */
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

/** A signature that is missing its parts, made for something else, or false; the message says which. */
export class SignatureError extends Error {
  override name = "SignatureError";
}

const bad = (message: string): never => {
  throw new SignatureError(message);
};

/** The 32 key bytes of an OpenSSH `ssh-ed25519 AAAA… [comment]` public key line. */
export function parsePublicKey(line: string): Uint8Array {
  const [type, b64] = line.trim().split(/\s+/);
  if (type !== KEY_TYPE || !b64) return bad(`not an ssh-ed25519 public key: ${JSON.stringify(line.slice(0, 80))}`);
  const r = reader(fromBase64(b64));
  if (r.text() !== KEY_TYPE) return bad("the ssh-ed25519 public key names another key type inside");
  const key = r.bytes();
  if (key.length !== 32 || !r.done()) return bad("the ssh-ed25519 public key is not 32 bytes");
  return key;
}

/** `ssh-ed25519 AAAA… comment`, the OpenSSH form of 32 key bytes. */
export function formatPublicKey(key: Uint8Array, comment = SIG_PRINCIPAL): string {
  return `${KEY_TYPE} ${toBase64(keyBlob(key))}${comment ? ` ${comment}` : ""}`;
}

/** The base64 body of the key's `-----BEGIN PUBLIC KEY-----` (SPKI) form, for openssl. */
export function spkiBase64(key: Uint8Array): string {
  return toBase64(concat(SPKI_PREFIX, key));
}

/** `SHA256:…`, the fingerprint ssh-keygen prints for a key. */
export async function fingerprint(key: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", toBuffer(keyBlob(key))));
  return `SHA256:${toBase64(digest).replace(/=+$/, "")}`;
}

interface Parsed {
  key: Uint8Array;
  namespace: string;
  hash: string;
  signature: Uint8Array;
}

/** The fields of an armoured SSH signature; a SignatureError when it is not one. */
export function parseSignature(text: string): Parsed {
  const body = text.trim();
  if (!body.startsWith(ARMOR_BEGIN) || !body.endsWith(ARMOR_END)) return bad(`not an SSH signature (no "${ARMOR_BEGIN}" … "${ARMOR_END}")`);
  const r = reader(fromBase64(body.slice(ARMOR_BEGIN.length, -ARMOR_END.length).replace(/\s+/g, "")));
  if (new TextDecoder().decode(r.take(6)) !== MAGIC) return bad("not an SSH signature (no SSHSIG preamble)");
  const version = r.u32();
  if (version !== 1) return bad(`SSH signature version ${version}, not 1`);
  const keyReader = reader(r.bytes());
  const keyType = keyReader.text();
  if (keyType !== KEY_TYPE) return bad(`signed with a ${keyType} key, not ssh-ed25519`);
  const key = keyReader.bytes();
  const namespace = r.text();
  r.bytes(); // reserved
  const hash = r.text();
  const sig = reader(r.bytes());
  const sigType = sig.text();
  if (sigType !== KEY_TYPE) return bad(`a ${sigType} signature, not ssh-ed25519`);
  const signature = sig.bytes();
  if (key.length !== 32 || signature.length !== 64 || !r.done() || !sig.done()) return bad("a malformed ssh-ed25519 signature");
  return { key, namespace, hash, signature };
}

/**
 * Checks that `signatureText` (SHA256SUMS.sig) is `key`'s signature of `message` (SHA256SUMS) for
 * hey releases. Resolves when it is; rejects with a SignatureError saying why not. Never trusts the
 * key the signature names: it is only compared, to say "another key" rather than "does not match".
 */
export async function verifySignature(message: Uint8Array, signatureText: string, key: Uint8Array): Promise<void> {
  const sig = parseSignature(signatureText);
  if (sig.namespace !== SIG_NAMESPACE) bad(`it was made for ${JSON.stringify(sig.namespace)}, not for hey releases (${JSON.stringify(SIG_NAMESPACE)})`);
  if (!equal(sig.key, key)) bad(`it was made with another key (${await fingerprint(sig.key)}), not hey's release key (${await fingerprint(key)})`);
  const digest = HASHES[sig.hash] ?? bad(`it uses the hash ${JSON.stringify(sig.hash)}, not sha512 or sha256`);
  const data = await signedData(message, sig.hash, digest);
  const publicKey = await crypto.subtle.importKey("raw", toBuffer(key), { name: "Ed25519" }, false, ["verify"]);
  if (!(await crypto.subtle.verify("Ed25519", publicKey, toBuffer(sig.signature), toBuffer(data))))
    bad("it does not match the file: the file or the signature was changed");
}

/** An armoured SSH signature of `message` for hey releases, made with `privateKey` (Ed25519). */
export async function sign(message: Uint8Array, privateKey: CryptoKey, publicKey: Uint8Array): Promise<string> {
  const data = await signedData(message, "sha512", "SHA-512");
  const signature = new Uint8Array(await crypto.subtle.sign("Ed25519", privateKey, toBuffer(data)));
  const blob = concat(
    new TextEncoder().encode(MAGIC),
    u32(1),
    str(keyBlob(publicKey)),
    str(SIG_NAMESPACE),
    str(""),
    str("sha512"),
    str(concat(str(KEY_TYPE), str(signature))),
  );
  const lines = toBase64(blob).match(/.{1,70}/g) ?? [];
  return `${ARMOR_BEGIN}\n${lines.join("\n")}\n${ARMOR_END}\n`;
}

const HASHES: Record<string, string> = { sha512: "SHA-512", sha256: "SHA-256" };

async function signedData(message: Uint8Array, hash: string, digest: string): Promise<Uint8Array> {
  const h = new Uint8Array(await crypto.subtle.digest(digest, toBuffer(message)));
  return concat(new TextEncoder().encode(MAGIC), str(SIG_NAMESPACE), str(""), str(hash), str(h));
}

const keyBlob = (key: Uint8Array) => concat(str(KEY_TYPE), str(key));

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}

function str(value: string | Uint8Array): Uint8Array {
  const bytes = typeof value === "string" ? new TextEncoder().encode(value) : value;
  return concat(u32(bytes.length), bytes);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Reads SSH wire fields in order; a SignatureError when the data ends early. */
function reader(bytes: Uint8Array) {
  let at = 0;
  const take = (n: number) => {
    if (at + n > bytes.length) bad("a truncated SSH signature or key");
    const part = bytes.subarray(at, at + n);
    at += n;
    return part;
  };
  const u32 = () => new DataView(bytes.buffer, bytes.byteOffset).getUint32(take(4).byteOffset - bytes.byteOffset);
  const field = () => take(u32());
  return { take, u32, bytes: field, text: () => new TextDecoder().decode(field()), done: () => at === bytes.length };
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

// WebCrypto takes an ArrayBuffer-backed view; a copy is exact and cheap at these sizes.
const toBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;

function fromBase64(b64: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) bad("not valid base64");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
