#!/bin/sh
# vm.sh from a repository under a directory the guest covers with tmpfs
# (/tmp here; /root alike): the guest still sees the repository at its path.
set -eu
k=$(pwd -P)/build/kernel/arch/x86/boot/bzImage
d=$(mktemp -d /tmp/harness-repo.XXXXXX)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/scripts"
cp scripts/vm.sh scripts/guest-init.sh "$d/scripts/"
echo marker-seen > "$d/marker"
out=$(cd "$d" && sh scripts/vm.sh --kernel "$k" --accel tcg --timeout 120 --out "$d/out" -- 'cat marker; pwd')
echo "$out"
echo "$out" | grep -qx marker-seen
echo "$out" | grep -qx "$d"
