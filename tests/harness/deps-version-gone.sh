#!/bin/sh
# make deps when the series' base version is no longer in the archive: one
# message naming the package, the version and what apt has, non-zero exit,
# nothing left behind; the installed packages are not touched.
set -eu
d=$(mktemp -d "$(pwd)/build/harness-gone.XXXXXX")
trap 'rm -rf "$d" build/src/linux-source-6.12_6.12.0-0harness*' EXIT
printf 'Subject: x\n\nBase: Debian linux-source-6.12 6.12.0-0harness1\n' > "$d/0000-cover-letter.patch"
rc=0
out=$(PATCHES=$d sh scripts/deps.sh 2>&1) || rc=$?
echo "$out"
[ $rc != 0 ]
echo "$out" | grep -q "deps: linux-source-6.12 6.12.0-0harness1, the series' base, is no longer in the archive (apt has: [0-9]"
[ ! -e build/src/linux-source-6.12_6.12.0-0harness1 ] && [ ! -e build/src/linux-source-6.12_6.12.0-0harness1.dl ]
