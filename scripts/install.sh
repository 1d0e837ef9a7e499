#!/bin/sh
# Installs hey, the terminal coding agent, from its release archives (SPEC §20):
#
#   curl -fsSL https://raw.githubusercontent.com/hey-cli/hey/main/scripts/install.sh | sh
#
# Environment:
#   HEY_INSTALL_DIR  where hey goes (default: ~/.local/bin); an existing hey there is upgraded
#   HEY_VERSION      the version to install, e.g. 0.2.0 (default: the latest release)
#   HEY_RELEASE_URL  the directory holding the archives and SHA256SUMS, for mirrors and tests;
#                    "{version}" in it is replaced by HEY_VERSION
#   HEY_INSECURE=1   go on (warned) with a release that is not signed by hey's release key, or
#                    over plain http to another machine: only for a mirror you trust
#
# It checks that SHA256SUMS is signed by hey's release key (below; SHA256SUMS.sig, verified with
# ssh-keygen -Y verify or openssl), picks the archive for this OS and CPU (musl Linux and Rosetta 2
# included), verifies its SHA-256 against SHA256SUMS, checks that the binary runs (and is
# HEY_VERSION when set), and renames it into place, so a failure at any step leaves nothing
# installed or changed. Release names, URL rules and the signature format mirror
# src/upgrade/targets.ts, src/upgrade/release.ts and src/upgrade/signature.ts.
#
# Everything runs inside main(), called on the last line: a download cut short by the network
# cannot run half a script.

set -eu

HEY_REPO="hey-cli/hey"
# hey's release key (src/upgrade/release-key.ts), as ssh-keygen and as openssl read it
HEY_RELEASE_KEY="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPp76BjQc9uCelm8Y7rGjYbNQ2U/POINy1qXbPh+2ODS"
HEY_RELEASE_KEY_SPKI="MCowBQYDK2VwAyEA+nvoGNBz24J6WbxjusaNhs1DZT884g3LWpds+H7Y4NI="

say() {
  printf '%s\n' "$*"
}

die() {
  printf 'hey install: error: %s\n' "$*" >&2
  exit 1
}

warn() {
  printf 'hey install: warning: %s\n' "$*" >&2
}

insecure() {
  [ "${HEY_INSECURE:-}" = 1 ]
}

# The release target for this machine: linux-x64, linux-x64-musl, linux-arm64, darwin-x64,
# darwin-arm64. Dies with the reason on anything else.
detect_target() {
  os=$(uname -s 2>/dev/null || echo unknown)
  arch=$(uname -m 2>/dev/null || echo unknown)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      die "this installer is for macOS and Linux; on Windows download hey-windows-x64.zip from $(release_dir) and put hey.exe on your PATH" ;;
    *) die "no hey build for the operating system \"$os\" (there are builds for Linux, macOS and Windows)" ;;
  esac
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "no hey build for the CPU \"$arch\" on $os (there are builds for x86_64 and arm64)" ;;
  esac
  # A shell under Rosetta 2 sees x86_64; the native arm64 build is the one to install.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    arch=arm64
  fi
  suffix=
  if [ "$os" = linux ] && is_musl; then
    [ "$arch" = x64 ] || die "no hey build for musl Linux on $arch (only x86_64); build it from source: see the README"
    suffix=-musl
  fi
  printf '%s-%s%s\n' "$os" "$arch" "$suffix"
}

# musl libc (Alpine, Void musl…): ldd says so; else glibc answers getconf; else a musl loader.
is_musl() {
  if command -v ldd >/dev/null 2>&1 && ldd --version 2>&1 | grep -qi musl; then
    return 0
  fi
  if getconf GNU_LIBC_VERSION >/dev/null 2>&1; then
    return 1
  fi
  for loader in /lib/ld-musl-*.so.1; do
    [ -e "$loader" ] && return 0
  done
  return 1
}

# The release directory (no trailing slash).
release_dir() {
  if [ -n "${HEY_RELEASE_URL:-}" ]; then
    case "$HEY_RELEASE_URL" in
      http://* | https://*) ;;
      *) die "HEY_RELEASE_URL must be an http:// or https:// URL, got \"$HEY_RELEASE_URL\"" ;;
    esac
    case "$HEY_RELEASE_URL" in
      *"{version}"*)
        [ -n "$version" ] || die "HEY_RELEASE_URL contains {version}: set HEY_VERSION too"
        printf '%s\n' "$HEY_RELEASE_URL" | sed "s/{version}/$version/g; s:/*\$::" ;;
      *) printf '%s\n' "$HEY_RELEASE_URL" | sed 's:/*$::' ;;
    esac
  elif [ -n "$version" ]; then
    printf 'https://github.com/%s/releases/download/v%s\n' "$HEY_REPO" "$version"
  else
    printf 'https://github.com/%s/releases/latest/download\n' "$HEY_REPO"
  fi
}

# check_transport URL: https, or plain http to this machine (localhost, 127.x.x.x, [::1]); plain
# http to anywhere else only with HEY_INSECURE=1, warned.
check_transport() {
  case "$1" in
    http://*) ;;
    *) return 0 ;;
  esac
  hostport=${1#http://}
  hostport=${hostport%%/*}
  hostport=${hostport##*@}
  case "$hostport" in
    \[*) host=${hostport%%]*}] ;;
    *) host=${hostport%%:*} ;;
  esac
  host=$(printf '%s\n' "$host" | tr '[:upper:]' '[:lower:]')
  case "$host" in
    localhost | *.localhost | "[::1]") return 0 ;;
  esac
  if printf '%s\n' "$host" | grep -Eq '^127(\.[0-9]{1,3}){3}$'; then
    return 0
  fi
  insecure || die "$1 is plain http to another machine: anyone on the way can read and change what is downloaded; use https (HEY_INSECURE=1 allows it)"
  warn "HEY_INSECURE=1: downloading over plain http from $hostport"
}

# download URL FILE: curl or wget, failing on HTTP errors. curl follows redirects to https only
# (to http as well for a loopback mirror or with HEY_INSECURE=1).
download() {
  if command -v curl >/dev/null 2>&1; then
    redirects='=https'
    case "$1" in http://*) redirects='=https,http' ;; esac
    curl --proto '=https,http' --proto-redir "$redirects" -fsSL --retry 2 -o "$2" "$1" </dev/null
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" </dev/null
  else
    die "curl or wget is needed to download hey"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    die "sha256sum or shasum is needed to verify the download"
  fi
}

# verify_signature: $tmp/SHA256SUMS.sig must be the release key's signature of $tmp/SHA256SUMS for
# hey releases. ssh-keygen (OpenSSH 8.2+, on macOS and most Linux) checks the OpenSSH signature as
# it is; openssl 3 checks the Ed25519 signature inside it over the data it signs, rebuilt here
# (PROTOCOL.sshsig): "SSHSIG", then as uint32-length strings the namespace "hey-release", an empty
# reserved field, "sha512" and the SHA-512 of SHA256SUMS.
verify_signature() {
  errors=
  if command -v ssh-keygen >/dev/null 2>&1; then
    printf 'hey-release %s\n' "$HEY_RELEASE_KEY" >"$tmp/allowed_signers"
    if out=$(ssh-keygen -Y verify -f "$tmp/allowed_signers" -I hey-release -n hey-release -s "$tmp/SHA256SUMS.sig" <"$tmp/SHA256SUMS" 2>&1); then
      return 0
    fi
    errors="ssh-keygen: $(printf '%s\n' "$out" | tr '\r\n' '  ' | sed 's/  */ /g; s/ *$//')"
  fi
  if command -v openssl >/dev/null 2>&1; then
    if out=$(verify_with_openssl 2>&1); then
      return 0
    fi
    errors="${errors:+$errors; }openssl: $(printf '%s\n' "$out" | sed -n 1p)"
  fi
  if [ -z "$errors" ]; then
    problem="the signature of $dir/SHA256SUMS cannot be checked here: that needs ssh-keygen (OpenSSH 8.2 or later: apt-get install openssh-client, apk add openssh-keygen) or openssl 3"
  else
    problem="$dir/SHA256SUMS.sig is not a valid signature of its SHA256SUMS by hey's release key ($errors)"
  fi
  insecure || die "$problem; nothing was installed (HEY_INSECURE=1 goes on without the signature, for a mirror you trust)"
  warn "HEY_INSECURE=1: going on unverified: $problem"
}

verify_with_openssl() {
  {
    printf 'SSHSIG\000\000\000\013hey-release\000\000\000\000\000\000\000\006sha512\000\000\000\100'
    openssl dgst -sha512 -binary "$tmp/SHA256SUMS"
  } >"$tmp/signed" || return 1
  sed -n '/^-----BEGIN SSH SIGNATURE-----$/,/^-----END SSH SIGNATURE-----$/p' "$tmp/SHA256SUMS.sig" | sed '1d;$d' | tr -d '\r\n' >"$tmp/sig.b64"
  openssl base64 -d -A -in "$tmp/sig.b64" -out "$tmp/sig.bin" || return 1
  # the Ed25519 signature is the last 64 bytes: the signature field ends the blob
  tail -c 64 "$tmp/sig.bin" >"$tmp/sig.raw"
  printf -- '-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----\n' "$HEY_RELEASE_KEY_SPKI" >"$tmp/key.pem"
  openssl pkeyutl -verify -pubin -inkey "$tmp/key.pem" -rawin -in "$tmp/signed" -sigfile "$tmp/sig.raw"
}

# version_order A B: -1, 0 or 1 as version A is older than, the same as or newer than B (semver:
# numbers, then a pre-release before its release), as compareVersions in src/upgrade/release.ts.
version_order() {
  awk -v a="$1" -v b="$2" '
    function core(v) { i = index(v, "-"); return i ? substr(v, 1, i - 1) : v }
    function pre(v) { i = index(v, "-"); return i ? substr(v, i + 1) : "" }
    BEGIN {
      split(core(a), x, "."); split(core(b), y, ".")
      for (i = 1; i <= 3; i++) if (x[i] + 0 != y[i] + 0) { print (x[i] + 0 < y[i] + 0) ? -1 : 1; exit }
      p = pre(a); q = pre(b)
      if (p == q) print 0; else if (p == "") print 1; else if (q == "") print -1; else print (p < q) ? -1 : 1
    }'
}

# The version a `hey --version` line names ("hey 0.2.0 (…)" → 0.2.0), or nothing.
version_in() {
  sed -n '1s/^hey \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*[-0-9A-Za-z.]*\).*/\1/p'
}

main() {
  version=${HEY_VERSION:-}
  version=${version#v}
  if [ -n "$version" ] && ! printf '%s\n' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'; then
    die "HEY_VERSION must be a version such as 0.2.0, got \"${HEY_VERSION:-}\""
  fi
  dir=$(release_dir)
  check_transport "$dir"
  target=$(detect_target)
  asset="hey-$target.tar.gz"
  install_dir=${HEY_INSTALL_DIR:-${HOME:?HOME is not set: set HEY_INSTALL_DIR}/.local/bin}
  install_dir=${install_dir%/}

  tmp=$(mktemp -d 2>/dev/null || mktemp -d -t hey-install)
  staged=
  trap 'rm -rf "$tmp"; [ -z "$staged" ] || rm -f "$staged"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  download "$dir/SHA256SUMS" "$tmp/SHA256SUMS" ||
    die "could not download $dir/SHA256SUMS${version:+ (is there a release $version?)}; nothing was installed"
  if download "$dir/SHA256SUMS.sig" "$tmp/SHA256SUMS.sig"; then
    verify_signature
  else
    problem="$dir is not signed (no SHA256SUMS.sig), so the checksums in its SHA256SUMS prove nothing"
    insecure || die "$problem; nothing was installed (HEY_INSECURE=1 goes on without the signature, for a mirror you trust)"
    warn "HEY_INSECURE=1: going on unverified: $problem"
  fi
  expected=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print tolower($1); exit }' "$tmp/SHA256SUMS")
  [ -n "$expected" ] || die "$dir/SHA256SUMS lists no $asset; nothing was installed"
  say "downloading $dir/$asset"
  download "$dir/$asset" "$tmp/$asset" ||
    die "could not download $dir/$asset; nothing was installed"
  actual=$(sha256_of "$tmp/$asset")
  [ "$actual" = "$expected" ] ||
    die "checksum mismatch for $asset: SHA256SUMS says $expected, the download is $actual; nothing was installed"

  mkdir -p "$tmp/x"
  tar -xzf "$tmp/$asset" -C "$tmp/x" hey 2>/dev/null || die "$asset holds no hey binary; nothing was installed"
  [ -f "$tmp/x/hey" ] || die "$asset holds no hey binary; nothing was installed"

  mkdir -p "$install_dir" 2>/dev/null || die "cannot create $install_dir: set HEY_INSTALL_DIR to a directory you can write"
  # staged beside the target, so the final mv is a rename (atomic, and fine over a running hey)
  staged="$install_dir/.hey-install-$$"
  cp "$tmp/x/hey" "$staged" 2>/dev/null || die "cannot write to $install_dir: set HEY_INSTALL_DIR to a directory you can write"
  chmod 755 "$staged"
  if ! new_line=$("$staged" --version </dev/null 2>&1); then
    die "the downloaded hey does not run on this machine ($target): $new_line"
  fi
  new_version=$(printf '%s\n' "$new_line" | version_in)
  [ -n "$new_version" ] || die "the downloaded hey printed \"$new_line\" for --version; nothing was installed"
  if [ -n "$version" ] && [ "$new_version" != "$version" ]; then
    die "$dir holds hey $new_version, not the HEY_VERSION $version; nothing was installed"
  fi

  old_line=
  old_version=
  existed=
  [ ! -e "$install_dir/hey" ] || existed=1
  if [ -x "$install_dir/hey" ]; then
    old_line=$("$install_dir/hey" --version </dev/null 2>/dev/null | sed -n 1p || true)
    old_version=$(printf '%s\n' "$old_line" | version_in)
  fi
  mv -f "$staged" "$install_dir/hey" || die "cannot replace $install_dir/hey"
  staged=
  if [ -z "$old_version" ]; then
    # nothing there, or a file that is not this hey (rakyll's load generator is also called hey)
    say "installed $new_line to $install_dir/hey${existed:+ (replacing a file there that is not this hey)}"
  else
    case $(version_order "$new_version" "$old_version") in
      1) say "upgraded $install_dir/hey: $old_line → $new_line" ;;
      -1) say "downgraded $install_dir/hey: $old_line → $new_line" ;;
      *)
        if [ "$old_line" = "$new_line" ]; then
          say "reinstalled $new_line to $install_dir/hey"
        else
          say "reinstalled $install_dir/hey: $old_line → $new_line"
        fi ;;
    esac
  fi

  case ":${PATH:-}:" in
    *":$install_dir:"*)
      found=$(command -v hey 2>/dev/null || true)
      if [ -n "$found" ] && [ "$found" != "$install_dir/hey" ]; then
        say "note: $found comes before it on your PATH, so \`hey\` runs that one (rakyll's HTTP load generator is also called hey: see the README)"
      fi ;;
    *) path_hint ;;
  esac
}

# How to put the install dir on PATH, for the user's login shell.
path_hint() {
  case "${SHELL:-}" in
    */fish) line="fish_add_path $install_dir" rc="$HOME/.config/fish/config.fish" ;;
    */zsh) line="export PATH=\"$install_dir:\$PATH\"" rc="$HOME/.zshrc" ;;
    */bash) line="export PATH=\"$install_dir:\$PATH\"" rc="$HOME/.bashrc" ;;
    *) line="export PATH=\"$install_dir:\$PATH\"" rc="$HOME/.profile" ;;
  esac
  say ""
  say "$install_dir is not on your PATH. Add it with:"
  say "  echo '$line' >> $rc"
  say "then open a new terminal (or run: $line)."
}

main "$@"
