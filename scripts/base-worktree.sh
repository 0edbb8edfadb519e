#!/bin/sh
# Usage: base-worktree.sh DIR -- make DIR a worktree of build/linux at its
# base (check-bisect.sh, base-tree.sh).  A worktree left from an earlier
# build/linux (the series moved to another base) is made again.
set -eu
d=$1
if [ -e "$d/.git" ] && ! git -C "$d" cat-file -e "$(git -C build/linux rev-parse base)" 2>/dev/null; then
	rm -rf "$d"
fi
if [ ! -e "$d/.git" ]; then
	mkdir -p "$(dirname "$d")"
	git -C build/linux worktree prune
	git -C build/linux worktree add -q --detach "$(pwd)/$d" base
fi
