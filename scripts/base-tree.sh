#!/bin/sh
# build/base/linux: a worktree of the unpatched base, and build/base/obj its
# prepared out-of-tree build with the guest config (for sparse and W=1
# comparisons and for benchmarks against the base kernel).  The layout
# mirrors build/linux + build/kernel so ccache hits across the two.
# KERNEL_TARGETS=prepare builds only what sparse needs.
set -eu
B=build/base
# A worktree of an earlier build/linux (another base): make it again.
if [ -e "$B/linux/.git" ] && ! git -C "$B/linux" cat-file -e "$(git -C build/linux rev-parse base)" 2>/dev/null; then
	rm -rf "$B/linux"
fi
if [ ! -d "$B/linux/.git" ] && [ ! -f "$B/linux/.git" ]; then
	mkdir -p "$B"
	git -C build/linux worktree prune
	git -C build/linux worktree add -q --detach "$(pwd)/$B/linux" base
fi
# The base lacks the series' own options: do not require them there.
CONFIG_CHECK=0 sh scripts/kernel.sh "$B/linux" "$B/obj" config/guest.config >/dev/null
