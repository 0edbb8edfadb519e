#!/bin/sh
# make check-bisect: build the kernel after every patch of the queue in turn
# (and perf / the selftests when the patch touches them), incrementally, in
# build/bisect; name the first patch that does not build.  After the last
# patch of the first series (the fixes, patches/1-*), that series alone on
# the base: its kernel boots and its kselftests pass, none skipped.
#
# The patches are taken newest first, from HEAD down to patch 1: the first
# kernel and perf builds are then of HEAD's files, which make check has just
# built (.ci/run runs it first) in build/kernel and build/perf, laid out as
# build/bisect/obj and build/bisect/perf are, so ccache has nearly every
# object (CCACHE_BASEDIR): 1289 hits and 5 misses, 176 to 239 s for the
# vmlinux where a cold build took 670 s, both with another session's work
# on the same 2 cores.  Oldest first, the first build (base + patch 1) was
# a second cold build: most objects include a header the series changes
# (perf_event.h, random.h), and the .config differs (ccache hashes
# autoconf.h, which every object includes).  Each step builds exactly the
# tree of its patch whichever way the walk goes (kbuild and perf's build
# rebuild what changed, added or removed files included); a step that fails
# does not stop the walk, so the lowest patch that fails is the one named.
set -u
B=build/bisect
sh scripts/base-worktree.sh "$B/linux" || exit 1
first=$(grep -v -e '^#' -e '^$' patches/series | head -n 1 | cut -d/ -f1)
alone=$(grep -v -e '^#' -e '^$' patches/series | grep -c "^$first/")
total=$(git -C build/linux rev-list --count base..HEAD)
n=$((total + 1))
bad=
# The Kconfig files $B/obj's .config was made from ("": unknown, e.g. left
# by an earlier run).  kernel.sh configures again only when the fragments
# change: before a kernel.sh build in $B/obj, crossing a patch that adds
# or removes options makes it configure from the fragments again (a patch
# that adds options gets them from the fragments, not olddefconfig's
# defaults (off), or their code is never built).
# Returns 0 when it made kernel.sh configure again.
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
rm -f "$B"/log.*
for c in $(git -C build/linux rev-list base..HEAD); do
	n=$((n - 1))
	subj=$(git -C build/linux log -1 --format=%s "$c")
	git -C "$B/linux" checkout -q --detach "$c" || exit 1
	files=$(git -C build/linux diff-tree --no-commit-id --name-only -r "$c")
	ok=1
	t0=$(date +%s)
	: > "$B/log"
	# A patch that only touches files the kernel build never reads (perf,
	# libperf, the selftests, the tools copy of the perf UAPI header,
	# Documentation/, MAINTAINERS) cannot break the kernel build of the
	# patch before it, which is built: skip it, it is the slow part of CI.
	if [ $n = 1 ] || echo "$files" | grep -q -v -e '^tools/perf/' -e '^tools/lib/perf/' -e '^MAINTAINERS$' \
			-e '^tools/testing/' -e '^Documentation/' \
			-e '^tools/include/uapi/linux/perf_event\.h$'; then
		what=kernel
		reconfigure && what=kernel+config
		# vmlinux, not bzImage (the same objects, without the compressed
		# image); the UAPI headers only for a selftests build, below
		CONFIG_CHECK=0 KERNEL_TARGETS=vmlinux HEADERS=0 \
			sh scripts/kernel.sh "$B/linux" "$B/obj" config/guest.config >> "$B/log" 2>&1 || ok=0
	else
		what=-
	fi
	# perf's man pages and shell tests are not compiled: no perf build
	if [ $ok = 1 ] && echo "$files" |
			grep -v -e '^tools/perf/Documentation/' -e '^tools/perf/tests/shell/' |
			grep -q -e '^tools/perf/' -e '^tools/lib/' -e '^tools/include/'; then
		what="${what#-}+perf"
		sh scripts/perf.sh "$B/linux" "$B/perf" >> "$B/log" 2>&1 || ok=0
	fi
	if [ $ok = 1 ] && echo "$files" | grep -q '^tools/testing/selftests/perf_events/'; then
		what="${what#-}+selftests"
		{ . scripts/kbuild-env.sh && kmake "$B/linux" "$(realpath "$B/obj")" headers_install &&
			sh scripts/selftests.sh "$B/linux" "$B/selftests" "$B/obj"; } >> "$B/log" 2>&1 || ok=0
	fi
	if [ $ok = 1 ] && [ $n = "$alone" ]; then
		what="${what#-}+alone"
		reconfigure || :
		sh scripts/check-alone.sh "$B" "$first" >> "$B/log" 2>&1 || ok=0
	fi
	if [ $ok = 1 ]; then
		printf 'ok   %2d %-16s %4ds %s\n' "$n" "$what" $(( $(date +%s) - t0 )) "$subj"
	else
		printf 'FAIL %2d %-16s %s\n' "$n" "$what" "$subj"
		tail -n 15 "$B/log"
		cp "$B/log" "$B/log.$n"
		case $what in
		*alone) bad="check-bisect: series $first, alone on the base, fails its kselftests (log: $B/log.$n)" ;;
		*) bad="check-bisect: patch $n ($subj) does not build (log: $B/log.$n)" ;;
		esac
	fi
done
[ "$total" -gt 0 ] || echo "check-bisect: the series is empty"
if [ -n "$bad" ]; then
	# the last one found is the lowest patch that fails
	echo "$bad"
	exit 1
fi
echo "check-bisect: all $total patches build; series $first alone passes its kselftests"
