#!/bin/sh
# make check-bisect: build the kernel after every patch of the queue in turn
# (and perf / the selftests when the patch touches them), incrementally;
# name the first patch that does not build.  After the last patch of the
# first series (the fixes, patches/1-*), that series alone on the base: its
# kernel boots and its kselftests pass, none skipped.
#
# Two walks run side by side, each in a worktree of its own: the kernel
# walk (build/bisect: the kernel, the selftests, the series-1 boot) and the
# tools walk (build/bisect/t: perf), each over the patches that touch what
# it builds.  A perf build spends most of its time in one process (feature
# checks, make reading its makefiles, the link), a kernel build after a
# small patch too (make walking the tree, the link): side by side, each
# fills the other's idle core.  Each walk stops at its first failure, and
# at the other's; the report names the first patch that failed.
set -u
B=build/bisect
T=$B/t
sh scripts/base-worktree.sh "$B/linux" || exit 1
sh scripts/base-worktree.sh "$T/linux" || exit 1
first=$(grep -v -e '^#' -e '^$' patches/series | head -n 1 | cut -d/ -f1)
alone=$(grep -v -e '^#' -e '^$' patches/series | grep -c "^$first/")
rm -f "$B/failed" "$B/kernel.res" "$B/tools.res"

# files_of COMMIT: the files the patch changes
files_of() { git -C build/linux diff-tree --no-commit-id --name-only -r "$1"; }

# needs_kernel N FILES: a patch that only touches files the kernel build
# never reads (perf, libperf, the selftests, the tools copy of the perf UAPI
# header, Documentation/, MAINTAINERS) cannot break the kernel build the
# previous patch passed: no kernel build for it
needs_kernel() {
	[ "$1" = 1 ] || echo "$2" | grep -q -v -e '^tools/perf/' -e '^tools/lib/perf/' -e '^MAINTAINERS$' \
		-e '^tools/testing/' -e '^Documentation/' -e '^tools/include/uapi/linux/perf_event\.h$'
}
# needs_perf FILES: perf's man pages and shell tests are not compiled
needs_perf() {
	echo "$1" | grep -v -e '^tools/perf/Documentation/' -e '^tools/perf/tests/shell/' |
		grep -q -e '^tools/perf/' -e '^tools/lib/' -e '^tools/include/'
}
needs_selftests() { echo "$1" | grep -q '^tools/testing/selftests/perf_events/'; }

# report N WHAT T0 OK SUBJ RESFILE LOG: one line per patch and walk
report() {
	if [ "$4" = 1 ]; then
		printf 'ok   %2d %-16s %4ds %s\n' "$1" "$2" $(( $(date +%s) - $3 )) "$5"
		echo "$1 ok" >> "$6"
	else
		printf 'FAIL %2d %-16s %s\n' "$1" "$2" "$5"
		tail -n 15 "$7"
		echo "$1 fail $2 $7" >> "$6"
		echo "$1" >> "$B/failed"
	fi
}

# stop_at N: another walk failed at a patch before N (or at N)
stop_at() { [ -s "$B/failed" ] && [ "$(sort -n "$B/failed" | head -n 1)" -le "$1" ]; }

kernel_walk() {
	n=0
	for c in $(git -C build/linux rev-list --reverse base..HEAD); do
		n=$((n + 1))
		files=$(files_of "$c")
		needs_kernel $n "$files" || needs_selftests "$files" || [ $n = "$alone" ] || continue
		stop_at $n && return
		subj=$(git -C build/linux log -1 --format=%s "$c")
		git -C "$B/linux" checkout -q --detach "$c" || exit 1
		ok=1 what=- t0=$(date +%s)
		: > "$B/log"
		if needs_kernel $n "$files"; then
			what=kernel
			# kernel.sh configures again only when the fragments
			# change: a patch that adds options gets them from the
			# fragments, not olddefconfig's defaults (off), or their
			# code is never built
			if echo "$files" | grep -q 'Kconfig'; then
				rm -f "$B/obj/.fragments"
				what=kernel+config
			fi
			# vmlinux, not bzImage (the same objects, without the
			# compressed image); the UAPI headers only for a
			# selftests build, below
			CONFIG_CHECK=0 KERNEL_TARGETS=vmlinux HEADERS=0 \
				sh scripts/kernel.sh "$B/linux" "$B/obj" config/guest.config >> "$B/log" 2>&1 || ok=0
		fi
		if [ $ok = 1 ] && needs_selftests "$files"; then
			what="${what#-}+selftests"
			{ . scripts/kbuild-env.sh && kmake "$B/linux" "$(realpath "$B/obj")" headers_install &&
				sh scripts/selftests.sh "$B/linux" "$B/selftests" "$B/obj"; } >> "$B/log" 2>&1 || ok=0
		fi
		if [ $ok = 1 ] && [ $n = "$alone" ]; then
			what="${what#-}+alone"
			sh scripts/check-alone.sh "$B" "$first" >> "$B/log" 2>&1 || ok=0
		fi
		report $n "$what" "$t0" $ok "$subj" "$B/kernel.res" "$B/log"
		[ $ok = 1 ] || return
	done
}

tools_walk() {
	n=0
	for c in $(git -C build/linux rev-list --reverse base..HEAD); do
		n=$((n + 1))
		files=$(files_of "$c")
		needs_perf "$files" || continue
		stop_at $n && return
		subj=$(git -C build/linux log -1 --format=%s "$c")
		git -C "$T/linux" checkout -q --detach "$c" || exit 1
		ok=1 t0=$(date +%s)
		sh scripts/perf.sh "$T/linux" "$T/perf" > "$T/log" 2>&1 || ok=0
		report $n perf "$t0" $ok "$subj" "$B/tools.res" "$T/log"
		[ $ok = 1 ] || return
	done
}

kernel_walk & kpid=$!
tools_walk & tpid=$!
wait $kpid
wait $tpid

n=$(git -C build/linux rev-list --count base..HEAD)
[ "$n" -gt 0 ] || { echo "check-bisect: the series is empty"; exit 1; }
if [ -s "$B/failed" ]; then
	f=$(sort -n "$B/failed" | head -n 1)
	c=$(git -C build/linux rev-list --reverse base..HEAD | sed -n "${f}p")
	subj=$(git -C build/linux log -1 --format=%s "$c")
	set -- $(grep -h "^$f fail" "$B/kernel.res" "$B/tools.res" 2>/dev/null | head -n 1)
	case ${3:-} in
	*alone) echo "check-bisect: series $first, alone on the base, fails its kselftests (log: ${4:-})" ;;
	*) echo "check-bisect: patch $f ($subj) does not build (${3:-}; log: ${4:-})" ;;
	esac
	exit 1
fi
# every patch was either built by a walk or touches nothing either builds
i=0 missing=
for c in $(git -C build/linux rev-list --reverse base..HEAD); do
	i=$((i + 1))
	files=$(files_of "$c")
	if needs_kernel $i "$files" || needs_selftests "$files" || [ $i = "$alone" ]; then
		grep -q "^$i ok" "$B/kernel.res" 2>/dev/null || missing="$missing $i"
	fi
	if needs_perf "$files"; then
		grep -q "^$i ok" "$B/tools.res" 2>/dev/null || missing="$missing $i"
	fi
done
[ -z "$missing" ] || { echo "check-bisect: no result for patch(es)$missing (a walk ended early)"; exit 1; }
echo "check-bisect: all $n patches build; series $first alone passes its kselftests"
