#!/bin/sh
# Usage: check-sparse.sh RESULTS -- sparse (make C=2) over every kernel
# directory whose C files the series touches, patched (build/kernel) and
# base (build/base); any warning the base does not have fails.  Warnings are
# compared without line numbers, so code that only moved is not "new".
set -u
res=$1
LINUX=build/linux
dirs=$(git -C "$LINUX" diff --name-only base..HEAD -- '*.c' '*.h' |
	grep -v -e '^tools/' -e '^Documentation/' -e '^samples/' -e '^include/' |
	xargs -r -n1 dirname | sort -u)
if [ -z "$dirs" ]; then
	echo "SKIP sparse (the series touches no kernel C file)" >> "$res"
	exit 0
fi
KERNEL_TARGETS=prepare sh scripts/base-tree.sh || { echo "FAIL sparse (could not prepare the base tree)" >> "$res"; exit 0; }
export CCACHE_DIR=$(pwd)/build/ccache CCACHE_DEPEND=1
# As scripts/kernel.sh builds build/kernel: another HOSTCC rebuilds objtool,
# and with it every object, at the next 'make kernel'.
export KBUILD_BUILD_TIMESTAMP='2000-01-01' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
# Relative file names, no line numbers: the two trees are compared by message.
norm() { grep -E ': (warning|error):' | sed -E 's#^(\.\./)*[^ :]*/build/(base/)?linux/##; s#^\.\./linux/##; s/:[0-9]+:[0-9]+:/:/' | sort; }
mkdir -p build/check/sparse
for d in $dirs; do
	f=build/check/sparse/$(echo "$d" | tr / _)
	make -C "$LINUX" O=../kernel ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" C=2 "$d/" 2>&1 | norm > "$f.patched"
	make -C build/base/linux O=../obj ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" C=2 "$d/" 2>&1 | norm > "$f.base"
	new=$(comm -23 "$f.patched" "$f.base")
	if [ -z "$new" ]; then
		echo "PASS sparse/$d" >> "$res"
	else
		echo "FAIL sparse/$d new warnings: $(echo "$new" | head -n 3 | tr '\n' ' ')" >> "$res"
		echo "$new"
	fi
done
