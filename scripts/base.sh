#!/bin/sh
# Print "<package> <version>" of the Debian kernel source the series is
# built on, read from the cover letter's "Base: Debian <package> <version>"
# line, so the series itself says which base it needs (6.1 or 6.12).
set -eu
PATCHES=${PATCHES:-patches}
cover=$PATCHES/0000-cover-letter.patch
[ -r "$cover" ] || { echo "base: $cover missing: cannot tell the base" >&2; exit 1; }
line=$(sed -n 's/^Base: Debian \(linux-source-[0-9.]*\) \([^ ]*[^ .]\)\.\{0,1\}$/\1 \2/p' "$cover" | head -1)
[ -n "$line" ] || {
	echo "base: $cover has no line 'Base: Debian linux-source-<x.y> <version>'" >&2
	exit 1
}
echo "$line"
