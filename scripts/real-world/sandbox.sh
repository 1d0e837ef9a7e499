#!/usr/bin/env bash
# Inside record.sh's fresh mount/PID/network namespaces (still real root): builds the stub sandbox
# for one shell, makes every mount read-only, then runs driver.ts as root of a user namespace.
#   sandbox.sh SHELL COMMANDS.jsonl SCRIPTS_DIR BUN > RECORD.jsonl   (the record goes to stdout: no
# directory outside the sandbox is writable from inside)
set -euo pipefail
shell=$1 commands=$2 here=$3 bun=$4

corpus=$(cat "$commands") # /tmp, where it may be, is replaced next
mount -t tmpfs -o mode=1777 tmpfs /tmp
mkdir -p /tmp/real /tmp/bin /tmp/stub /tmp/box/cwd /tmp/box/home /tmp/box/logs /tmp/dev /tmp/etc
mount --bind /usr /tmp/real # the real programs, for the stubs that pass through
export PATH=/tmp/real/sbin:/tmp/real/bin # /usr/bin will hold the stubs
printf '%s\n' "$corpus" > /tmp/commands.jsonl

# a logging stub for every word of the corpus that could name a program — every run of characters
# between blanks, operators, quotes, `$` and `/`, also with quotes removed, so `%1`, `,` and `[[`
# get one too (a name no stub covers is still caught: driver.ts records failed executions and
# "command not found"); the log directory is written into the script, so even `env -i` keeps
# logging. Executed, a stub gets its own path as $0 (the kernel passes it to the #! interpreter); a
# shell that reads a stub as a script (`bash x`, `. x`, both found on PATH) gives a bare name: that
# runs no program, so nothing is logged.
cat > /tmp/stub/log <<'STUB'
#!/tmp/real/bin/dash
case $0 in */*) ;; *) return 0 2>/dev/null || exit 0 ;; esac
printf '%s\037' "${0##*/}" "$@" >> /tmp/box/logs/$$; printf '\036' >> /tmp/box/logs/$$
STUB
chmod 755 /tmp/stub/log
"$bun" -e '
  const text = require("fs").readFileSync("/tmp/commands.jsonl", "utf8");
  const names = new Set();
  for (const line of text.split("\n").filter(Boolean)) {
    const c = JSON.parse(line).c;
    const words = [...c.split(/[\s;&|()<>\x27"`\\$\/]+/), ...c.replace(/[\x27"\\]/g, "").split(/[\s;&|()<>`$\/]+/), ...[...c.matchAll(/[A-Za-z0-9_][A-Za-z0-9_.+:@-]*/g)].map((m) => m[0])];
    for (const w of words) if (w && w.length < 100 && w !== "." && w !== "..") names.add(w);
  }
  // the editors and pagers programs fall back on; interp.test stands for the mvdan/sh test binary ($GOSH_PROG, driver.ts)
  for (const n of ["sh", "vi", "vim", "nano", "editor", "sensible-editor", "less", "more", "pager", "cat", "ls", "rm", "interp.test"]) names.add(n);
  for (const n of names) require("fs").symlinkSync("/tmp/stub/log", "/tmp/bin/" + n);
'
# programs that run programs: log, then run the real one
for name in env timeout nice nohup stdbuf xargs find flock setsid prlimit setpriv setarch linux32 linux64 i386 x86_64 uname26 taskset ionice chrt choom \
  script time bash dash sudo sudoedit watch nsenter unshare chroot su runuser sg newgrp strace valgrind gdb perf fakeroot logsave start-stop-daemon \
  capsh dbus-run-session ssh-agent tmux; do
  real=""
  for dir in bin sbin local/bin local/sbin; do [ -x "/tmp/real/$dir/$name" ] && { real="/tmp/real/$dir/$name"; break; }; done
  [ -n "$real" ] || continue
  rm -f "/tmp/bin/$name"
  { cat /tmp/stub/log; echo "exec '$real' \"\$@\""; } > "/tmp/bin/$name"
  chmod 755 "/tmp/bin/$name"
done
rm -f /tmp/bin/sh
{ cat /tmp/stub/log; echo "exec /tmp/real/bin/$shell \"\$@\""; } > /tmp/bin/sh # /bin/sh is the shell under test
chmod 755 /tmp/bin/sh

# sudo as configured on a Debian machine, minus the pty (there is no terminal here)
printf 'Defaults env_reset\nDefaults secure_path="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"\nroot ALL=(ALL:ALL) NOPASSWD: ALL\n' > /tmp/etc/sudoers
chmod 440 /tmp/etc/sudoers
mount --bind /tmp/etc/sudoers /etc/sudoers
# the user the corpus's placeholders name
cp /etc/passwd /tmp/etc/passwd && echo 'alice:x:1000:1000:Alice:/tmp/box/home:/bin/sh' >> /tmp/etc/passwd
cp /etc/group /tmp/etc/group && echo 'alice:x:1000:' >> /tmp/etc/group
mount --bind /tmp/etc/passwd /etc/passwd
mount --bind /tmp/etc/group /etc/group
# the user namespace below maps uids and gids 0-65535 onto themselves (newuidmap reads these)
echo 'root:0:65536' > /tmp/etc/subid
mount --bind /tmp/etc/subid /etc/subuid
mount --bind /tmp/etc/subid /etc/subgid

mount --bind /tmp/stub /tmp/stub # mount points, so that they turn read-only below
mount --bind /tmp/bin /tmp/bin
for dir in /usr/bin /usr/sbin /usr/local/bin /usr/local/sbin; do mount --bind /tmp/bin "$dir"; done

for dev in null zero random urandom; do touch "/tmp/dev/$dev"; mount --bind "/dev/$dev" "/tmp/dev/$dev"; done
ln -s /proc/self/fd /tmp/dev/fd
mkdir /tmp/dev/pts && mount -t devpts -o newinstance,ptmxmode=0666 devpts /tmp/dev/pts && ln -s pts/ptmx /tmp/dev/ptmx # `script` runs its command on a pty
for n in 0 1 2; do ln -s "/proc/self/fd/$n" "/tmp/dev/$(echo stdin stdout stderr | cut -d' ' -f$((n + 1)))"; done
mount --rbind /tmp/dev /dev
mount -t tmpfs -o mode=1777 tmpfs /var/tmp # sudoedit's copies

# The commands run as root of a user namespace mapping uids 0-65535 onto themselves: root there
# owns root's files but holds no capability over this mount namespace, so it can neither remount
# nor write a read-only mount (/proc included, whose sysrq-trigger root may otherwise write).
# /proc turns read-only only once newuidmap has written the map into it; the driver waits for that.
mkfifo /tmp/go
unshare --user --map-users=0,0,65536 --map-groups=0,0,65536 --setgroups allow -- \
  /tmp/real/bin/bash -c 'read -r _ < /tmp/go && rm /tmp/go && exec "$0" "$1" "$2" /tmp/commands.jsonl' "$bun" "$here/driver.ts" "$shell" &
driver=$!
until [ "$(cat /proc/$driver/uid_map 2>/dev/null | wc -l)" -ge 1 ] && grep -q 65536 /proc/$driver/uid_map; do sleep 0.05; done

mapfile -t mounts < /proc/self/mounts # everything read-only but the sandbox's /tmp
for m in "${mounts[@]}"; do
  mp=$(printf '%b' "$(cut -d' ' -f2 <<< "$m")")
  [ "$mp" = /tmp ] || [ "$mp" = /var/tmp ] || [ "$mp" = /dev/pts ] || mount -o remount,bind,ro "$mp" 2>/dev/null || true
done
cd /tmp/box
echo go > /tmp/go
wait "$driver" # this shell is pid 1 of the namespace: waiting, it also reaps what the commands leave behind
