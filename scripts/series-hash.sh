#!/bin/sh
# Print a hash of patches/series and the patches it names (tree.sh, export.sh).
set -eu
PATCHES=${PATCHES:-patches}
{ cat "$PATCHES/series"; grep -v -e '^#' -e '^$' "$PATCHES/series" | sed "s|^|$PATCHES/|" | xargs -r cat; } |
	sha256sum | cut -d' ' -f1
