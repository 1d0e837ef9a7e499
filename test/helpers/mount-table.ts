// A mount table of a test's own (proc(5) mountinfo, as fs/mounts.ts reads /proc/self/mountinfo), for
// fs/bounded-reads.ts: a read on a network mount gets the short deadline a hung server calls for,
// one on a local disk waits as long as a busy machine may need. A test that stands a hung mount
// for some of its temp paths lists them here as NFS mounts.
import { writeFileSync } from "node:fs";

/** Writes to `file` a table with `/` on ext4 and each of `network` an NFS mount; returns `file`. */
export function networkMounts(file: string, network: readonly string[]): string {
  const octal = (point: string) => point.replace(/[ \t\n\\]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`);
  const lines = [
    "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
    ...network.map((point, i) => `${40 + i} 22 0:${50 + i} / ${octal(point)} rw,relatime shared:${20 + i} - nfs4 server:/export${i} rw,vers=4.2`),
  ];
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}
