#!/usr/bin/env bash
# Builds bbpPairings (C++, FIDE Dutch and Burstein; Apache-2.0), the external peer of
# benchmarks/bench_pairing.py, into benchmarks/.peers/bbpPairings (gitignored). No line of its
# code enters this repository.
#
# Usage: benchmarks/peers/build-bbppairings.sh [SOURCE]
#   SOURCE  a checkout of bbpPairings, or a bare git directory of it (its HEAD is built);
#           without it the pinned commit below is cloned from GitHub.
# Needs g++ (C++20; Debian 12's g++ 12 works) and make. Takes about half a minute on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."

repository=https://github.com/BieremaBoyzProgramming/bbpPairings
# The commit measured in docs/benchmarks/pairing.md ("Merge remote-tracking branch 'origin/v6'").
commit=16a000f9811de322b0e835d5643198226165b5a9
target=benchmarks/.peers/bbpPairings

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source=${1:-}
if [ -z "$source" ]; then
  git clone --quiet "$repository" "$work/src"
  git -C "$work/src" checkout --quiet "$commit"
elif [ -f "$source/HEAD" ] && [ -d "$source/objects" ]; then
  mkdir "$work/src"
  git --git-dir="$source" archive HEAD | tar -x -C "$work/src"
elif [ -f "$source/Makefile" ]; then
  cp -r "$source" "$work/src"
else
  echo "$source is neither a bbpPairings checkout nor a bare git directory of one" >&2
  exit 2
fi

make -C "$work/src" -j"$(nproc)" >"$work/build.log" 2>&1 || {
  tail -20 "$work/build.log" >&2
  exit 1
}
mkdir -p "$(dirname "$target")"
cp "$work/src/bbpPairings.exe" "$target"
echo "built $target"
