#!/bin/sh
# build/base/linux: a worktree of the unpatched base, and build/base/obj its
# prepared out-of-tree build with the guest config (for sparse and W=1
# comparisons and for benchmarks against the base kernel).  The layout
# mirrors build/linux + build/kernel so ccache hits across the two.
# KERNEL_TARGETS=prepare builds only what sparse needs.
set -eu
B=build/base
sh scripts/base-worktree.sh "$B/linux"
# The base lacks the series' own options: do not require them there.
CONFIG_CHECK=0 sh scripts/kernel.sh "$B/linux" "$B/obj" config/guest.config >/dev/null
