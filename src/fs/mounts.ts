// Which mount a path is on, from the kernel's mount table (/proc/self/mountinfo; elsewhere none is
// known), so that one read stuck on a hung network mount makes the reads of every path on that
// mount fail at once (fs/bounded-reads.ts), not each after its own wait and its own thread. Only
// mounts whose file system can hang that way count: a network or FUSE one (an sshfs mount after the
// laptop slept, an NFS server gone). And which directories no walk enters: the kernel's own file
// systems (/proc, /sys), wherever they are mounted below the walk's root. Pure: fs/bounded-reads.ts
// and tools/walk.ts read the table, which touches none of the mounts.

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
 * The network or FUSE mount `path` (absolute) is on, where a read can hang; never the root itself (a
 * rootless container's fuse-overlayfs): a slow read there is the machine's, and refuses no other
 * path. Pure.
 */
export function hangingMount(path: string, mounts: readonly Mount[]): Mount | undefined {
  const mount = mountOf(path, mounts);
  return mount && mount.point !== "/" && mayHang(mount.type) ? mount : undefined;
}

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
    mounts.push({ point: unescapeOctal(fields[4]), type: fields[dash + 1]! });
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

/**
 * The kernel's own file systems, which no walk enters: proc holds every process's environment (a
 * match count on it tells an API key a guess at a time, and root reads them all) and files whose
 * read waits for ever (/proc/kmsg); sysfs is a huge tree of files the kernel makes up as they are read.
 */
const KERNEL = new Set(["proc", "sysfs"]);

/**
 * The directories strictly below `realRoot` (a real path) that a walk of it leaves out: /proc, /sys
 * and every other mount of the kernel's own file systems (KERNEL: a chroot's `proc`), sorted; one
 * inside another is left out with it. /proc and /sys count even where `mounts` does not list them
 * (no table: not Linux, or the table could not be read). Pure.
 */
export function kernelDirsBelow(realRoot: string, mounts: readonly Mount[]): string[] {
  const prefix = realRoot.endsWith("/") ? realRoot : `${realRoot}/`;
  const points = ["/proc", "/sys", ...mounts.filter((m) => KERNEL.has(m.type)).map((m) => m.point)].filter((p) => p.startsWith(prefix));
  return [...new Set(points)].filter((p, _, all) => !all.some((q) => p.startsWith(`${q}/`))).sort();
}

/** `real` as a path in /proc when it lies on a mount of proc elsewhere (a chroot's `/srv/c/proc/1/environ` is `/proc/1/environ`), else `real`. Pure. */
export function procPath(real: string, mounts: readonly Mount[]): string {
  const mount = mountOf(real, mounts);
  return mount?.type === "proc" && mount.point !== "/proc" ? `/proc${real.slice(mount.point.length)}` : real;
}

/** The kernel writes a space, tab, newline or backslash in a mount point as `\040`, `\011`, `\012`, `\134`. */
const unescapeOctal = (field: string): string => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
