#!/usr/bin/env bash
# Records what dash and bash really run for each command of the real-world corpus: every command
# runs under each shell in a throwaway Linux sandbox where every directory of PATH (and /bin,
# /usr/bin, /usr/sbin…) holds only logging stubs, so any program executed — by name or by path — is
# logged instead of run; programs that run other programs (env, xargs, find, sudo, script, timeout,
# the shells…) log and then run the real one, whose own executions land on the stubs again. Each
# command then runs a second time under strace, so that a program it tried to run and did not find
# (a path that is no file, a name no stub covers) counts too (driver.ts).
#
#   sudo scripts/real-world/record.sh COMMANDS.jsonl OUT_DIR    (Linux, root; writes OUT_DIR/dash.jsonl, bash.jsonl)
#
# The sandbox: private mount, PID and network namespaces; every file system read-only except a
# tmpfs /tmp; a /dev holding only null, zero, random, urandom; and the commands run inside a user
# namespace, so the read-only mounts are locked and nothing can remount them. Needs util-linux
# unshare, strace, sudo (for `sudo`'s own parsing), bun; ~5 minutes for both shells on 2 cores.
# Nothing here runs in CI: the test reads the record.
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "record.sh: run as root (it builds mount namespaces)" >&2; exit 2; }
commands=$(realpath "$1")
out=$(realpath "$2")
here=$(dirname "$(realpath "$0")")
bun=$(command -v bun || realpath "$here/../../node_modules/.bin/bun")
mkdir -p "$out"

for shell in ${RECORD_SHELLS:-dash bash}; do
  unshare --mount --pid --net --fork --mount-proc --propagation private -- bash "$here/sandbox.sh" "$shell" "$commands" "$here" "$bun" > "$out/$shell.jsonl"
done
