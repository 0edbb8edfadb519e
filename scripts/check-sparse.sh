#!/bin/sh
# Usage: check-sparse.sh RESULTS -- sparse (make C=2) over every kernel
# directory whose C files the series touches, patched (build/kernel) and
# base (build/base); any warning the base does not have fails.  Warnings are
# compared without line numbers, so code that only moved is not "new".
set -u
res=$1
. scripts/kbuild-env.sh
dirs=$(touched_dirs)
if [ -z "$dirs" ]; then
	echo "SKIP sparse (the series touches no kernel C file)" >> "$res"
	exit 0
fi
KERNEL_TARGETS=prepare sh scripts/base-tree.sh || { echo "FAIL sparse (could not prepare the base tree)" >> "$res"; exit 0; }
# Relative file names, no line numbers: the two trees are compared by message.
norm() { grep -E ': (warning|error):' | sed -E 's#^(\.\./)*[^ :]*/build/(base/)?linux/##; s#^\.\./linux/##; s/:[0-9]+:[0-9]+:/:/' | sort; }
mkdir -p build/check/sparse
# kbuild below may compile in build/kernel: no longer kernel.sh's whole build
rm -f build/kernel/.commit
for d in $dirs; do
	f=build/check/sparse/$(echo "$d" | tr / _)
	kmake build/linux ../kernel -j"$(nproc)" C=2 "$d/" 2>&1 | norm > "$f.patched"
	kmake build/base/linux ../obj -j"$(nproc)" C=2 "$d/" 2>&1 | norm > "$f.base"
	new=$(comm -23 "$f.patched" "$f.base")
	if [ -z "$new" ]; then
		echo "PASS sparse/$d" >> "$res"
	else
		echo "FAIL sparse/$d new warnings: $(echo "$new" | head -n 3 | tr '\n' ' ')" >> "$res"
		echo "$new"
	fi
done
