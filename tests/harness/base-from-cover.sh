#!/bin/sh
# The base (Debian source package and version) is read from the cover
# letter's "Base:" line; a cover letter without one is named in the error.
set -eu
d=$(mktemp -d "$(pwd)/build/harness-base.XXXXXX")
trap 'rm -rf "$d"' EXIT
printf 'Subject: x\n\nBase: Debian linux-source-6.12 6.12.117-1~deb12u1\n' > "$d/0000-cover-letter.patch"
got=$(PATCHES=$d sh scripts/base.sh)
echo "$got"
[ "$got" = "linux-source-6.12 6.12.117-1~deb12u1" ]
printf 'Subject: x\n\nBase: Debian linux-source-6.1 6.1.192-3.\n' > "$d/0000-cover-letter.patch"
got=$(PATCHES=$d sh scripts/base.sh)
echo "$got"
[ "$got" = "linux-source-6.1 6.1.192-3" ]
printf 'Subject: x\n\nno base here\n' > "$d/0000-cover-letter.patch"
rc=0
out=$(PATCHES=$d sh scripts/base.sh 2>&1) || rc=$?
echo "$out"
[ $rc != 0 ]
echo "$out" | grep -q "0000-cover-letter.patch has no line 'Base: Debian linux-source-<x.y> <version>'"
