#!/usr/bin/env bash
# The README's test command on a fresh machine, as far as one machine can pretend to be one:
# a clean clone of this checkout's HEAD in DIR/kit, an empty HOME (so empty Cargo, Go, pip,
# npm, Maven and kit caches, and no tools installed into ~/.cargo/bin or ~/go/bin), a new
# virtualenv of the machine's Python, and a PATH with only the prerequisites the README names
# (Python, Go, cargo/rustc, Node/npm, a JDK with Maven, a C compiler). The machine's registry
# settings (~/.npmrc, Go's env file, git's config) are copied, as a new machine has them too;
# the Rust toolchain itself (RUSTUP_HOME) and Debian's packages (Chromium) are the machine's.
# Every output line is stamped with the clock and the seconds since the start.
#
#   bash bench/fresh/run.sh [DIR (default /tmp/fresh)] [SCRIPT (default scripts/test)]
#
# It downloads and builds everything the test setup installs (gigabytes in DIR): remove DIR
# afterwards.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:-/tmp/fresh}"
script="${2:-scripts/test}"
real_home="$HOME"
base_python="$(python3 -c 'import sys, os; print(os.path.join(sys.base_prefix, "bin", "python3"))')"
rustup_home="${RUSTUP_HOME:-$real_home/.rustup}"
go_bin="$(dirname "$(command -v go)")"

rm -rf "$dir/kit" "$dir/home" "$dir/tools" "$dir/cache" "$dir/venv"
mkdir -p "$dir/home/.config/go" "$dir/tools/bin" "$dir/cache"
git clone -q "$repo" "$dir/kit"
for f in .npmrc .gitconfig; do [ -f "$real_home/$f" ] && cp "$real_home/$f" "$dir/home/"; done
[ -f "$real_home/.config/go/env" ] && cp "$real_home/.config/go/env" "$dir/home/.config/go/env"
# cargo and rustc without the rest of ~/.cargo/bin (where an installed tree-sitter CLI lives).
for tool in cargo rustc rustup rustdoc; do
    if command -v "$tool" >/dev/null; then ln -s "$(command -v "$tool")" "$dir/tools/bin/$tool"; fi
done
"$base_python" -m venv "$dir/venv"

export HOME="$dir/home" CARGO_HOME="$dir/home/.cargo" RUSTUP_HOME="$rustup_home"
export GOPATH="$dir/home/go" GOMODCACHE="$dir/home/go/pkg/mod" GOCACHE="$dir/home/.cache/go-build"
export PIP_CACHE_DIR="$dir/cache/pip" npm_config_cache="$dir/cache/npm"
export PATH="$dir/venv/bin:$go_bin:$dir/tools/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export VIRTUAL_ENV="$dir/venv"
unset PYTHONPATH
cd "$dir/kit"
echo "fresh: $script from a clean clone of $(git rev-parse --short HEAD), $(date -u '+%F %T') UTC; $(uptime)"
start=$(date +%s)
set +e
bash "$script" 2>&1 | while IFS= read -r line; do
    printf '%s +%ss %s\n' "$(date -u +%T)" "$(($(date +%s) - start))" "$line"
done
status=${PIPESTATUS[0]}
echo "fresh: exit $status after $(($(date +%s) - start)) s, $(date -u '+%F %T') UTC; $(uptime)"
exit "$status"
