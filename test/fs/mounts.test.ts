import { describe, expect, test } from "bun:test";
import { hangingMount, kernelDirsBelow, mayHang, mountOf, parseMountinfo, procPath } from "../../src/fs/mounts.ts";

// Lines as Linux writes them (proc(5)): optional fields (none, one, several) before the `-`.
const TABLE = [
  "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro",
  "30 22 0:25 / /home rw,relatime - ext4 /dev/sda2 rw",
  "40 30 0:50 / /home/ana/work\\040files rw,nosuid,nodev,relatime shared:20 master:3 - fuse.sshfs ana@box:/srv rw,user_id=1000",
  "41 40 8:2 / /home/ana/work\\040files/cache rw - tmpfs tmpfs rw",
  "50 22 0:60 / /mnt/nfs rw - nfs4 server:/export rw",
  "51 22 0:61 / /mnt/nfs rw - tmpfs tmpfs rw", // mounted over the one before: the later one is seen
  "not a mount line",
  "",
].join("\n");

describe("the kernel's mount table", () => {
  const mounts = parseMountinfo(TABLE);

  test("each mount's point (a space written \\040 read back) and type; lines of another shape left out", () => {
    expect(mounts.map((m) => `${m.point} ${m.type}`)).toEqual([
      "/ ext4",
      "/home ext4",
      "/home/ana/work files fuse.sshfs",
      "/home/ana/work files/cache tmpfs",
      "/mnt/nfs nfs4",
      "/mnt/nfs tmpfs",
    ]);
  });

  test("a path is on the deepest mount that holds it by name; a mount stacked on another at the same point hides it", () => {
    expect(mountOf("/home/ana/work files/src/a.ts", mounts)?.type).toBe("fuse.sshfs");
    expect(mountOf("/home/ana/work files", mounts)?.type).toBe("fuse.sshfs");
    expect(mountOf("/home/ana/work files/cache/x", mounts)?.type).toBe("tmpfs");
    expect(mountOf("/home/ana/work filesystem", mounts)?.point).toBe("/home"); // a name that only starts the same
    expect(mountOf("/etc/hosts", mounts)?.point).toBe("/");
    expect(mountOf("/mnt/nfs/a", mounts)?.type).toBe("tmpfs");
    expect(mountOf("/etc/hosts", [])).toBeUndefined();
  });

  test("network and FUSE file systems can hang; local ones are not treated so", () => {
    expect(["nfs", "nfs4", "cifs", "smb3", "9p", "fuse.sshfs", "fuse.rclone", "fuse"].filter(mayHang)).toHaveLength(8);
    expect(["ext4", "xfs", "btrfs", "tmpfs", "overlay", "proc", "zfs"].filter(mayHang)).toEqual([]);
  });

  // the permission checks' reads get the short deadline there only: a local path waits as a busy machine needs
  test.each([
    ["/home/ana/work files/src/a.ts", "/home/ana/work files"], // sshfs
    ["/home/ana/work files/cache/x", undefined], // a tmpfs inside it
    ["/mnt/nfs/a", undefined], // the tmpfs stacked on the NFS mount
    ["/etc/hosts", undefined],
  ])("the mount %s may hang on: %s", (path, point) => {
    expect(hangingMount(path, mounts)?.point).toBe(point);
  });

  test("a root file system that is FUSE (a rootless container's fuse-overlayfs) is not one that may hang: every path is on it", () => {
    const root = parseMountinfo("1 0 0:40 / / rw,relatime - fuse.fuse-overlayfs fuse-overlayfs rw\n");
    expect(hangingMount("/tmp/hey-project/touched/config.toml", root)).toBeUndefined();
  });
});

describe("where no walk goes: the kernel's own file systems below its root", () => {
  const mounts = parseMountinfo(
    [
      "22 1 8:1 / / rw - ext4 /dev/sda1 rw",
      "23 22 0:5 / /proc rw - proc proc rw",
      "24 22 0:6 / /sys rw - sysfs sysfs rw",
      "25 24 0:7 / /sys/kernel/debug rw - debugfs debugfs rw",
      "26 22 0:8 / /srv/chroot/proc rw - proc proc rw",
      "27 22 0:9 / /srv/chroot/dev rw - devtmpfs udev rw",
    ].join("\n"),
  );

  test.each([
    ["/", ["/proc", "/srv/chroot/proc", "/sys"]],
    ["/srv", ["/srv/chroot/proc"]],
    ["/srv/chroot", ["/srv/chroot/proc"]],
    ["/home/ana/project", []],
    ["/sys", []], // the root itself is the caller's to refuse or search
    ["/proc", []],
  ])("below %s: %p", (root, dirs) => {
    expect(kernelDirsBelow(root, mounts)).toEqual(dirs);
  });

  test("/proc and /sys count where no table lists them (not Linux, or it could not be read)", () => {
    expect(kernelDirsBelow("/", [])).toEqual(["/proc", "/sys"]);
  });

  test.each([
    ["/srv/chroot/proc/1/environ", "/proc/1/environ"],
    ["/srv/chroot/proc", "/proc"],
    ["/proc/1/environ", "/proc/1/environ"],
    ["/srv/chroot/dev/null", "/srv/chroot/dev/null"],
    ["/srv/chroot/procfs/1/environ", "/srv/chroot/procfs/1/environ"],
  ])("%s is %s in /proc's own names", (real, asProc) => {
    expect(procPath(real, mounts)).toBe(asProc);
  });
});
