#!/bin/sh
# Usage: kernel.sh [SRC [OUT [FRAGMENT...]]]
# Out-of-tree build of SRC (default build/linux) into OUT (default
# build/kernel): tinyconfig + fragments (default config/guest.config) +
# olddefconfig, a check that no requested option was dropped, then bzImage
# and the UAPI headers (for the selftests). ccache, -j$(nproc).
# KERNEL_TARGETS overrides bzImage (e.g. prepare); HEADERS=0 skips the UAPI
# headers (check-bisect: only the selftests read them).
# CONFIG_CHECK=0 skips the check (check-bisect: early patches lack later options).
set -eu
SRC=${1:-build/linux}; OUT=${2:-build/kernel}
[ $# -gt 2 ] && shift 2 || set -- config/guest.config
ROOT=$(pwd)
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
log=$OUT/build.log
frags=
for f in "$@"; do frags="$frags $(realpath "$f")"; done
. "$ROOT/scripts/kbuild-env.sh"
mk() { kmake "$SRC" "$OUT" "$@"; }

# OUT/.commit: the commit of SRC that OUT holds a whole build of, for
# check-bisect's seed: none while building, none for other targets, none
# for a tree with changes, untracked files included, or that changed while
# it was built (checkpatch's cache file aside)
rm -f "$OUT/.commit"
# state: SRC's HEAD, then what differs from it
state() {
	git -C "$SRC" rev-parse -q --verify HEAD 2>/dev/null || return 0
	git -C "$SRC" status --porcelain --untracked-files=all --ignored 2>/dev/null |
		grep -v '^!! \.checkpatch-camelcase\.git\.' || :
}
before=$(state)
# Reconfigure only when a fragment changed (keeps incremental builds fast).
sum=$(cat $frags | sha256sum | cut -d' ' -f1)
: >"$log"
if [ ! -f "$OUT/.config" ] || [ "$(cat "$OUT/.fragments" 2>/dev/null)" != "$sum" ]; then
	rm -f "$OUT/.fragments"
	mk tinyconfig >>"$log" 2>&1 || { tail -20 "$log" >&2; echo "kernel: tinyconfig failed ($log)" >&2; exit 1; }
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OUT" "$OUT/.config" $frags >>"$log" 2>&1
	mk olddefconfig >>"$log" 2>&1 || { tail -20 "$log" >&2; echo "kernel: olddefconfig failed ($log)" >&2; exit 1; }
	if [ "${CONFIG_CHECK:-1}" = 1 ]; then
		sh "$ROOT/scripts/config-check.sh" "$OUT/.config" $frags ||
			{ echo "kernel: configuration check failed for$frags" >&2; exit 1; }
	fi
	echo "$sum" > "$OUT/.fragments"
fi
# No olddefconfig otherwise (7 s): when a Kconfig file changed, kbuild runs
# syncconfig itself; with no input it gives new options their defaults, as
# olddefconfig does (on a terminal it would ask).
if ! mk -j"$(nproc)" ${KERNEL_TARGETS:-bzImage} >>"$log" 2>&1 </dev/null ||
	{ [ "${HEADERS:-1}" = 1 ] && ! mk headers_install >>"$log" 2>&1 </dev/null; }; then
	grep -E 'error|Error' "$log" | head -20 >&2
	echo "kernel: build of $SRC failed (full log: $log)" >&2
	exit 1
fi
if [ -z "${KERNEL_TARGETS:-}" ] && [ -n "$before" ] && [ "$(echo "$before" | wc -l)" = 1 ] &&
	[ "$(state)" = "$before" ]; then
	echo "$before" > "$OUT/.commit"
fi
echo "kernel: ${KERNEL_TARGETS:-$OUT/arch/x86/boot/bzImage} built in $OUT"
