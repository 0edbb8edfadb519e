#!/bin/sh
# make export right after make tree reproduces patches/ byte for byte.
set -eu
d=$(mktemp -d "$(pwd)/build/harness-export.XXXXXX")
trap 'rm -rf "$d"' EXIT
cp -a patches "$d/patches"
PATCHES=$d/patches sh scripts/export.sh
diff -r patches "$d/patches"
