// Which mount a path is on, from the kernel's mount table (/proc/self/mountinfo; elsewhere none is
// known), so that one read stuck on a hung network mount makes the reads of every path on that
// mount fail at once (fs/bounded-reads.ts), not each after its own wait and its own thread. Only
// mounts whose file system can hang that way count: a network or FUSE one (an sshfs mount after the
// laptop slept, an NFS server gone). Pure: fs/bounded-reads.ts reads the table, which touches
// none of the mounts.

/** A mount: where it is and its file system type (`nfs4`, `fuse.sshfs`, `ext4`…). */
export interface Mount {
  point: string;
  type: string;
}

/** Where Linux lists the mounts this process sees. */
export const MOUNTINFO = "/proc/self/mountinfo";

/** File systems served by another machine or by a user-space daemon: a read of them can hang. */
const REMOTE = new Set(["nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "9p", "afs", "ceph", "glusterfs", "lustre", "davfs", "fuse", "fuseblk"]);

/** Whether a read of a file system of `type` can hang while its server or daemon is gone. */
export const mayHang = (type: string): boolean => REMOTE.has(type) || type.startsWith("fuse.");

/**
 * The mounts of a mountinfo text (proc(5): ID, parent, dev, root, mount point, options, optional
 * fields, `-`, type, source, super options); lines it cannot read are left out. Pure.
 */
export function parseMountinfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split("\n")) {
    const fields = line.split(" ");
    const dash = fields.indexOf("-", 6);
    if (dash < 0 || fields[4] === undefined || fields[dash + 1] === undefined) continue;
    mounts.push({ point: unescaped(fields[4]), type: fields[dash + 1]! });
  }
  return mounts;
}

/** The mount `path` (absolute) is on, by name: the one whose point is the longest that holds it. Pure. */
export function mountOf(path: string, mounts: readonly Mount[]): Mount | undefined {
  let best: Mount | undefined;
  for (const m of mounts) {
    const holds = path === m.point || path.startsWith(m.point.endsWith("/") ? m.point : `${m.point}/`);
    if (holds && (!best || m.point.length >= best.point.length)) best = m;
  }
  return best;
}

/** The kernel writes a space, tab, newline or backslash in a mount point as `\040`, `\011`, `\012`, `\134`. */
const unescaped = (field: string): string => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
