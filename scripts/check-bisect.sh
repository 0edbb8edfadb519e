#!/bin/sh
# make check-bisect: build the kernel after every patch of the queue in turn
# (and perf / the selftests when the patch touches them), incrementally;
# name the first patch that does not build.  After the last patch of the
# first series (the fixes, patches/1-*), that series alone on the base: its
# kernel boots and its kselftests pass, none skipped.
#
# Two walks run side by side, each in a worktree of its own: the kernel
# walk (build/bisect: the kernel, the series-1 boot; newest patch first,
# see below) and the tools walk
# (build/bisect/t: perf, and the selftests against the UAPI headers of the
# same tree, which headers_install makes without a configuration), each
# over the patches that touch what it builds.  A perf build spends most of
# its time in one process (feature checks, make reading its makefiles, the
# link), a kernel build after a small patch too (make walking the tree, the
# link): side by side, each fills the other's idle core.  The kernel walk
# is the longer one: the tools walk runs at a lower priority, and builds
# perf as perf's DEBUG=1 does (-O0: a fraction of the compile time of the
# default -O3, whose build of HEAD is make check's).  The tools walk
# waits while the series-1 kernel boots (a guest under TCG is slow enough
# without a compiler beside it).  The tools walk stops at its first
# failure, or on reaching a patch at or after one the kernel walk failed
# at; the report names the first patch that failed.
set -u
B=build/bisect
T=$B/t
mkdir -p "$T"
exec 9> "$B/lock"
flock -n 9 || { echo "check-bisect: another check-bisect is running (lock $B/lock)"; exit 1; }
sh scripts/base-worktree.sh "$B/linux" || exit 1
sh scripts/base-worktree.sh "$T/linux" || exit 1
first=$(grep -v -e '^#' -e '^$' patches/series | head -n 1 | cut -d/ -f1)
alone=$(grep -v -e '^#' -e '^$' patches/series | grep -c "^$first/")
# the commits, once: build/linux may move while this runs
commits=$(git -C build/linux rev-list --reverse base..HEAD)
rm -f "$B/failed" "$B/kernel.res" "$B/tools.res" "$B/alone.busy" "$B"/log.*

# files_of COMMIT: the files the patch changes
files_of() { git -C build/linux diff-tree --no-commit-id --name-only -r "$1"; }

# needs_kernel N FILES: a patch that only touches files the kernel build
# never reads (perf, libperf, the tools' own headers and build files, the
# selftests, Documentation/, MAINTAINERS) cannot break the kernel build
# the previous patch passed: no kernel build for it
needs_kernel() {
	[ "$1" = 1 ] || echo "$2" | grep -q -v -e '^tools/perf/' -e '^tools/lib/' -e '^tools/include/' \
		-e '^tools/arch/' -e '^tools/build/' -e '^tools/scripts/' -e '^tools/Makefile' \
		-e '^tools/testing/' -e '^Documentation/' -e '^MAINTAINERS$'
}
# needs_perf FILES: perf's man pages and shell tests are not compiled
needs_perf() {
	echo "$1" | grep -v -e '^tools/perf/Documentation/' -e '^tools/perf/tests/shell/' |
		grep -q -e '^tools/perf/' -e '^tools/lib/' -e '^tools/include/' -e '^tools/arch/' \
			-e '^tools/build/' -e '^tools/scripts/' -e '^tools/Makefile'
}
needs_selftests() { echo "$1" | grep -q '^tools/testing/selftests/perf_events/'; }
needs_tools() { needs_perf "$1" || needs_selftests "$1"; }

# result N COMMIT WHAT T0 OK SUBJ RESFILE LOG: one line per patch and walk
result() {
	if [ "$5" = 1 ]; then
		printf 'ok   %2d %-16s %4ds %s\n' "$1" "$3" $(( $(date +%s) - $4 )) "$6"
		echo "$1 $2 ok" >> "$7"
	else
		printf 'FAIL %2d %-16s %s\n%s\n' "$1" "$3" "$6" "$(tail -n 15 "$8")"
		echo "$1 $2 fail $3 $8" >> "$7"
		echo "$1" >> "$B/failed"
	fi
}

# stop_at N: a walk failed at a patch before N, or at N
stop_at() { [ -s "$B/failed" ] && [ "$(sort -n "$B/failed" | head -n 1)" -le "$1" ]; }

# The kernel walk takes the patches newest first, from HEAD down to patch
# 1: its first build is then of HEAD's files, which make check has just
# built (.ci/run runs it first) in build/kernel, laid out as build/bisect/obj
# is, so ccache has nearly every object (CCACHE_BASEDIR; in an earlier
# measurement 1289 hits and 5 misses, 150 s where a cold build takes 670 s).
# Oldest first, its first build (base + patch 1) would be a second cold
# build: most objects include a header the series changes, and the .config
# differs (ccache hashes autoconf.h).  Each step builds exactly the tree of
# its patch whichever way the walk goes (kbuild rebuilds what changed, added
# or removed files included).  A failure does not stop it: the patches
# below it are built too, so that the lowest patch that fails is the one
# named; the patches at or above a failure of either walk are skipped.
#
# reconfigure: before a kernel.sh build in $B/obj, when the Kconfig files
# differ from those $B/obj's .config was made from (or those are unknown,
# as for the first build), make kernel.sh configure from the fragments
# again (kernel.sh does only when the fragments change): an option a patch
# adds must come from the fragments, not from olddefconfig's default (off),
# or its code is never built.  Returns 0 when it did.
cfg=
reconfigure() {
	_was=$cfg
	cfg=$(git -C "$B/linux" rev-parse HEAD)
	if [ -z "$_was" ] || git -C "$B/linux" diff --name-only "$_was" HEAD | grep -q 'Kconfig'; then
		rm -f "$B/obj/.fragments"
		return 0
	fi
	return 1
}

kernel_walk() {
	n=$(echo "$commits" | wc -l)
	for c in $(echo "$commits" | tac); do
		i=$n n=$((n - 1))
		files=$(files_of "$c")
		needs_kernel $i "$files" || [ $i = "$alone" ] || continue
		stop_at $i && continue
		subj=$(git -C build/linux log -1 --format=%s "$c")
		ok=1 what=- t0=$(date +%s)
		: > "$B/log"
		if ! git -C "$B/linux" checkout -q --detach "$c" >> "$B/log" 2>&1; then
			result $i "$c" checkout "$t0" 0 "$subj" "$B/kernel.res" "$B/log"
			return
		fi
		if needs_kernel $i "$files"; then
			what=kernel
			reconfigure && what=kernel+config
			# vmlinux, not bzImage (the same objects, without the
			# compressed image); no UAPI headers (the tools walk
			# installs its own)
			CONFIG_CHECK=0 KERNEL_TARGETS=vmlinux HEADERS=0 \
				sh scripts/kernel.sh "$B/linux" "$B/obj" config/guest.config >> "$B/log" 2>&1 || ok=0
		fi
		if [ $ok = 1 ] && [ $i = "$alone" ]; then
			what="${what#-}+alone"
			reconfigure || :
			: > "$B/alone.busy"
			sh scripts/check-alone.sh "$B" "$first" >> "$B/log" 2>&1 || ok=0
			rm -f "$B/alone.busy"
		fi
		[ $ok = 1 ] || cp "$B/log" "$B/log.$i"
		result $i "$c" "$what" "$t0" $ok "$subj" "$B/kernel.res" "$B/log.$i"
	done
}

tools_walk() {
	n=0
	for c in $commits; do
		n=$((n + 1))
		files=$(files_of "$c")
		needs_tools "$files" || continue
		while [ -e "$B/alone.busy" ]; do sleep 2; done
		stop_at $n && return
		subj=$(git -C build/linux log -1 --format=%s "$c")
		ok=1 what= t0=$(date +%s)
		: > "$T/log"
		if ! git -C "$T/linux" checkout -q --detach "$c" >> "$T/log" 2>&1; then
			result $n "$c" checkout "$t0" 0 "$subj" "$B/tools.res" "$T/log"
			return
		fi
		if needs_perf "$files"; then
			what=perf
			PERF_DEBUG=1 nice -n 10 sh scripts/perf.sh "$T/linux" "$T/perf" >> "$T/log" 2>&1 || ok=0
		fi
		if [ $ok = 1 ] && needs_selftests "$files"; then
			what="${what:+$what+}selftests"
			{ mkdir -p "$T/hdr" && . scripts/kbuild-env.sh &&
				kmake "$T/linux" "$(realpath "$T/hdr")" headers_install &&
				sh scripts/selftests.sh "$T/linux" "$T/selftests" "$T/hdr"; } >> "$T/log" 2>&1 || ok=0
		fi
		result $n "$c" "$what" "$t0" $ok "$subj" "$B/tools.res" "$T/log"
		[ $ok = 1 ] || return
	done
}

# kill_tree PID: PID and everything it started (make, gcc, qemu)
kill_tree() {
	for k in $(ps -o pid= --ppid "$1" 2>/dev/null); do kill_tree "$k"; done
	kill -TERM "$1" 2>/dev/null
}
kernel_walk & kpid=$!
tools_walk & tpid=$!
trap 'kill_tree $kpid; kill_tree $tpid; echo "check-bisect: interrupted"; exit 1' INT TERM HUP
wait $kpid
wait $tpid
trap - INT TERM HUP

[ -n "$commits" ] || { echo "check-bisect: the series is empty"; exit 1; }
n=$(echo "$commits" | wc -l)
if [ -s "$B/failed" ]; then
	f=$(sort -n "$B/failed" | head -n 1)
	c=$(echo "$commits" | sed -n "${f}p")
	subj=$(git -C build/linux log -1 --format=%s "$c")
	set -- $(grep -h "^$f $c fail" "$B/kernel.res" "$B/tools.res" 2>/dev/null | head -n 1)
	case ${4:-} in
	*alone) echo "check-bisect: series $first, alone on the base, fails its kselftests (log: ${5:-})" ;;
	*) echo "check-bisect: patch $f ($subj) does not build (${4:-}; log: ${5:-})" ;;
	esac
	exit 1
fi
# every patch was built by the walk(s) it needs, or needs neither
i=0 missing=
for c in $commits; do
	i=$((i + 1))
	files=$(files_of "$c")
	k=0 t=0
	needs_kernel $i "$files" || [ $i = "$alone" ] && k=1
	needs_tools "$files" && t=1
	[ $k = 0 ] || grep -q "^$i $c ok" "$B/kernel.res" 2>/dev/null || missing="$missing $i"
	[ $t = 0 ] || grep -q "^$i $c ok" "$B/tools.res" 2>/dev/null || missing="$missing $i"
	[ $k = 1 ] || [ $t = 1 ] ||
		printf 'ok   %2d %-16s %4ds %s\n' $i - 0 "$(git -C build/linux log -1 --format=%s "$c")"
done
[ -z "$missing" ] || { echo "check-bisect: no result for patch(es)$missing (a walk ended early)"; exit 1; }
echo "check-bisect: all $n patches build; series $first alone passes its kselftests"
