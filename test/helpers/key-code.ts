// Code that names a private key's armour lines without holding a key (x82 #1), as the reviewer read it.

const functions = (n: number) => Array.from({ length: n }, (_, i) => `func f${i}(x int) int { return x + ${i} }`);

/** pem.go: the header string on line 3, 200 lines of functions (4–203), the footer string on line 204. */
export const PEM_GO = [
  "package pem",
  "",
  'const begin = "-----BEGIN RSA PRIVATE KEY-----"',
  ...functions(200),
  'const end = "-----END RSA PRIVATE KEY-----"',
  "",
].join("\n");

/** detect.py: the header on line 2 and no END line; 7 lines. */
export const DETECT_PY = [
  "def detect(line):",
  '    if line.startswith("-----BEGIN OPENSSH PRIVATE KEY-----"):',
  "        return True",
  "    return False",
  "",
  "def main():",
  "    print(detect(input()))",
  "",
].join("\n");
