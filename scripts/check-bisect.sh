#!/bin/sh
# make check-bisect: build the kernel after every patch of the queue in turn
# (and perf / the selftests when the patch touches them), incrementally, in
# build/bisect; name the first patch that does not build.  After the last
# patch of the first series (the fixes, patches/1-*), that series alone on
# the base: its kernel boots and its kselftests pass, none skipped.
set -u
B=build/bisect
sh scripts/base-worktree.sh "$B/linux" || exit 1
first=$(grep -v -e '^#' -e '^$' patches/series | head -n 1 | cut -d/ -f1)
alone=$(grep -v -e '^#' -e '^$' patches/series | grep -c "^$first/")
n=0; bad=0
for c in $(git -C build/linux rev-list --reverse base..HEAD); do
	n=$((n + 1))
	subj=$(git -C build/linux log -1 --format=%s "$c")
	git -C "$B/linux" checkout -q --detach "$c" || exit 1
	files=$(git -C build/linux diff-tree --no-commit-id --name-only -r "$c")
	ok=1
	t0=$(date +%s)
	: > "$B/log"
	# A patch that only touches files the kernel build never reads (perf,
	# libperf, the selftests, the tools copy of the perf UAPI header,
	# Documentation/, MAINTAINERS) cannot break the kernel build the
	# previous patch passed: skip it, it is the slow part of CI.
	if [ $n = 1 ] || echo "$files" | grep -q -v -e '^tools/perf/' -e '^tools/lib/perf/' -e '^MAINTAINERS$' \
			-e '^tools/testing/' -e '^Documentation/' \
			-e '^tools/include/uapi/linux/perf_event\.h$'; then
		what=kernel
		# kernel.sh configures again only when the fragments change: a
		# patch that adds options gets them from the fragments, not
		# olddefconfig's defaults (off), or their code is never built
		if echo "$files" | grep -q 'Kconfig'; then
			rm -f "$B/obj/.fragments"
			what=kernel+config
		fi
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
		sh scripts/check-alone.sh "$B" "$first" >> "$B/log" 2>&1 || ok=0
	fi
	if [ $ok = 1 ]; then
		printf 'ok   %2d %-16s %4ds %s\n' "$n" "$what" $(( $(date +%s) - t0 )) "$subj"
	else
		printf 'FAIL %2d %-16s %s\n' "$n" "$what" "$subj"
		tail -n 15 "$B/log"
		case $what in
		*alone) echo "check-bisect: series $first, alone on the base, fails its kselftests (log: $B/log)" ;;
		*) echo "check-bisect: patch $n ($subj) does not build (log: $B/log)" ;;
		esac
		bad=1
		break
	fi
done
[ $n -gt 0 ] || echo "check-bisect: the series is empty"
[ $bad = 0 ] && echo "check-bisect: all $n patches build; series $first alone passes its kselftests"
exit $bad
