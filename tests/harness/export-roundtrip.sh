#!/bin/sh
# make tree + make export on a fresh repository (fewer objects than
# build/linux, as on a fresh clone) reproduces patches/ byte for byte: the
# export must not depend on how many digits git needs to abbreviate ids.
set -eu
d=$(mktemp -d "$(pwd)/build/harness-fresh.XXXXXX")
trap 'rm -rf "$d"' EXIT
base=$(git -C build/linux rev-parse base)
git init -q "$d/linux"
git -C "$d/linux" fetch -q --no-tags "$(pwd)/build/linux" "$base"
git -C "$d/linux" tag base "$base"
git -C "$d/linux" checkout -q --detach base
cp -a patches "$d/patches"
LINUX=$d/linux PATCHES=$d/patches sh scripts/tree.sh
LINUX=$d/linux PATCHES=$d/patches sh scripts/export.sh
diff -r patches "$d/patches"
