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
#
# It picks the archive for this OS and CPU (musl Linux and Rosetta 2 included), verifies its
# SHA-256 against the release's SHA256SUMS, checks that the binary runs (and is HEY_VERSION when
# set), and renames it into place, so a failure at any step leaves nothing installed or changed.
# Release names and URL rules mirror src/upgrade/targets.ts and src/upgrade/release.ts.
#
# Everything runs inside main(), called on the last line: a download cut short by the network
# cannot run half a script.

set -eu

HEY_REPO="hey-cli/hey"

say() {
  printf '%s\n' "$*"
}

die() {
  printf 'hey install: error: %s\n' "$*" >&2
  exit 1
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

# download URL FILE: curl or wget, failing on HTTP errors.
download() {
  if command -v curl >/dev/null 2>&1; then
    curl --proto '=https,http' -fsSL --retry 2 -o "$2" "$1" </dev/null
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
  target=$(detect_target)
  asset="hey-$target.tar.gz"
  install_dir=${HEY_INSTALL_DIR:-${HOME:?HOME is not set: set HEY_INSTALL_DIR}/.local/bin}
  install_dir=${install_dir%/}

  tmp=$(mktemp -d 2>/dev/null || mktemp -d -t hey-install)
  staged=
  trap 'rm -rf "$tmp"; [ -z "$staged" ] || rm -f "$staged"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  say "downloading $dir/$asset"
  download "$dir/SHA256SUMS" "$tmp/SHA256SUMS" ||
    die "could not download $dir/SHA256SUMS${version:+ (is there a release $version?)}; nothing was installed"
  expected=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print tolower($1); exit }' "$tmp/SHA256SUMS")
  [ -n "$expected" ] || die "$dir/SHA256SUMS lists no $asset; nothing was installed"
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
  if [ -x "$install_dir/hey" ]; then
    old_line=$("$install_dir/hey" --version </dev/null 2>/dev/null | sed -n 1p || true)
  fi
  mv -f "$staged" "$install_dir/hey" || die "cannot replace $install_dir/hey"
  staged=
  if [ -n "$old_line" ]; then
    say "upgraded $install_dir/hey: ${old_line} → $new_line"
  else
    say "installed $new_line to $install_dir/hey"
  fi

  case ":${PATH:-}:" in
    *":$install_dir:"*)
      found=$(command -v hey 2>/dev/null || true)
      if [ -n "$found" ] && [ "$found" != "$install_dir/hey" ]; then
        say "note: $found comes before it on your PATH"
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
