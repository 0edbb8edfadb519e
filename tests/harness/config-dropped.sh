#!/bin/sh
# make kernel: an option whose dependencies fail is named and stops the build.
set -eu
d=$(mktemp -d "$(pwd)/build/harness-config.XXXXXX")
trap 'rm -rf "$d"' EXIT
printf '%s\n' 'CONFIG_64BIT=y' 'CONFIG_X86_MCE_INJECT=y' > "$d/broken.config"
rc=0
sh scripts/kernel.sh build/linux "$d/obj" "$d/broken.config" > "$d/out" 2>&1 || rc=$?
cat "$d/out"
[ $rc != 0 ] || { echo "kernel.sh accepted a dropped option"; exit 1; }
grep -q "CONFIG_X86_MCE_INJECT=y requested in .*broken.config was dropped" "$d/out"
! grep -q 'CONFIG_64BIT' "$d/out"
