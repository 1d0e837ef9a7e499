#!/bin/sh
# Makes, once, the Debian trixie chroot with Wine 10 in which `npm run test:platforms` runs
# hey-windows-x64.exe (issue 29), and prints its path. Wine 8 (Debian 12) lacks
# bcryptprimitives.dll, which Bun needs, hence trixie. Cached: a chroot that was finished (its
# .hey-ready stamp is there) is reused as it is; an unfinished one is made again.
#
#   HEY_WINE_ROOT       where the chroot goes (default /var/cache/hey-platforms/wine-trixie)
#   HEY_DEBIAN_MIRROR   the Debian mirror for debootstrap (default: this machine's apt source)
#
# Needs root and debootstrap (apt-get install debootstrap). Takes about a minute and 1.4 GB.
# Nothing is mounted outside a private mount namespace (unshare --mount), so nothing is left mounted.
set -eu

root=${HEY_WINE_ROOT:-/var/cache/hey-platforms/wine-trixie}

die() {
  printf 'wine-root: %s\n' "$*" >&2
  exit 1
}

if [ -f "$root/.hey-ready" ]; then
  printf '%s\n' "$root"
  exit 0
fi
[ "$(id -u)" = 0 ] || die "making the Wine chroot needs root (debootstrap, chroot, mount)"
command -v debootstrap >/dev/null 2>&1 || die "debootstrap is not installed (apt-get install debootstrap)"

# the mirror apt uses here, not a host named in this file (Debian's own mirror, a proxy, a local copy)
mirror=${HEY_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs: *\([^ ]*\).*/\1/p' | grep -v security | head -n 1 || true)
fi
if [ -z "$mirror" ]; then
  mirror=$(awk '$1 == "deb" && $2 !~ /security/ { print ($2 ~ /^\[/ ? $3 : $2); exit }' /etc/apt/sources.list 2>/dev/null || true)
fi
[ -n "$mirror" ] || die "no Debian mirror found in /etc/apt/sources.list{,.d}: set HEY_DEBIAN_MIRROR"

partial="$root.partial"
rm -rf "$partial"
mkdir -p "$(dirname "$root")"
started=$(date +%s)
printf 'wine-root: debootstrap trixie + wine64 from %s into %s\n' "$mirror" "$partial" >&2
debootstrap --variant=minbase --include=wine64 trixie "$partial" "$mirror" >"$partial.log" 2>&1 ||
  die "debootstrap failed (the last lines of $partial.log follow)
$(tail -n 20 "$partial.log")"
mkdir -p "$partial/work"
# a prefix made once here; each test run copies it (wineboot takes ~10 s, a copy ~2 s)
# shellcheck disable=SC2016 # the inner script expands its own arguments
unshare --mount --fork sh -c '
  r=$1
  mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" || exit 1
  exec chroot "$r" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root WINEPREFIX=/root/prefix WINEDEBUG=-all \
    XDG_RUNTIME_DIR=/tmp /bin/sh -c "/usr/lib/wine/wine64 wineboot --init && /usr/lib/wine/wineserver -w && /usr/lib/wine/wine64 --version >/.hey-version"
' sh "$partial" >>"$partial.log" 2>&1 || die "wineboot failed (see $partial.log)"
[ -f "$partial/root/prefix/system.reg" ] || die "wineboot made no prefix (see $partial.log)"
mv "$partial/.hey-version" "$partial/.hey-ready"
rm -rf "$root"
mv "$partial" "$root"
mv "$partial.log" "$root.log"
printf 'wine-root: %s ready in %s s\n' "$(cat "$root/.hey-ready")" "$(($(date +%s) - started))" >&2
printf '%s\n' "$root"
