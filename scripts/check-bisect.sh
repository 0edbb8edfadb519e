#!/bin/sh
# make check-bisect: build the kernel after every patch of the queue in turn
# (and perf / the selftests when the patch touches them), incrementally;
# name the first patch that does not build.  After the last patch of the
# first series (the fixes, patches/1-*), that series alone on the base: its
# kernel boots and its kselftests pass, none skipped.
#
# --ci (make check-bisect-ci, what .ci/run runs): the same walks, but a
# patch that is not the last of its series builds only the objects of the
# files the queue touches (kernel and perf; the selftests as always):
# kbuild and perf's build compile those of them that the patch changes or
# that include a file it changes, by their own dependencies, so every file
# the patch changes and every file of the queue that includes a header it
# changes is compiled at that patch, in the guest configuration.  The last
# patch of each series builds the whole guest kernel and perf (the last
# patch of the queue: make check's build of HEAD, build/kernel and
# build/perf, which the make target makes first; a series that changes no
# kernel or no tools file: the build of the series before it, the same
# files; perf's files the same as at the series before: no build of them,
# as perf's build reads only tools/; the first series' end builds the
# whole perf in any case).  The kernel walk starts from make check's build
# of HEAD (seed, below).  A file the queue touches that neither build
# compiles (so that no step could catch its breakage) fails the run at
# once.
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
# is the longer one: the tools walk builds at nice 10 (relative to the
# walk's own: .ci/run starts the walk at 19 and gives it 0 once make
# check is done), and builds perf as perf's DEBUG=1 does (-O0: a fraction
# of the compile time of the default -O3, whose build of HEAD is make
# check's).  The tools walk does not wait while the series-1 kernel
# boots: at nice 10 its builds take little from the guest.  It stops at
# its first failure, or on reaching a patch at or after one the kernel
# walk failed at; the report names the first patch that failed.
set -u
MODE=full
case ${1:-} in
--ci) MODE=ci ;;
'') ;;
*) echo "usage: check-bisect.sh [--ci]" >&2; exit 2 ;;
esac
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
rm -f "$B/failed" "$B/kernel.res" "$B/tools.res" "$B"/log.* "$B/seeded"
total=$(echo "$commits" | grep -c .)
# ends: the number of the last patch of each series, as patches/series
# orders and groups them (<series dir>/<file>)
ends=" $(grep -v -e '^#' -e '^$' patches/series |
	awk -F/ '{ d[NR] = $1 } END { for (i = 1; i <= NR; i++) if (i == NR || d[i] != d[i + 1]) printf "%d ", i }')"
[ "$(grep -v -e '^#' -e '^$' patches/series | grep -c .)" = "$total" ] || {
	echo "check-bisect: patches/series and build/linux (base..HEAD, $total commits) differ: run make tree"; exit 1; }
is_end() { case $ends in *" $1 "*) return 0 ;; esac; return 1; }
# prev_end N: the last patch of the series before N's (empty for the first)
prev_end() { for e in $ends; do [ "$e" -lt "$1" ] && _p=$e; done; echo "${_p:-}"; unset _p; }
# commit_of N: patch N's commit; 0: the base
commit_of() { if [ "$1" = 0 ]; then git -C build/linux rev-parse base; else echo "$commits" | sed -n "${1}p"; fi; }

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
# needs_perf FILES: files perf's build reads.  Its man pages are not
# compiled, but the NAME lines of Documentation/perf-*.txt are, into
# common-cmds.h (builtin-help.o), and its build runs shellcheck on the
# shell tests when shellcheck is installed
needs_perf() {
	echo "$1" | grep -q '^tools/perf/Documentation/perf-.*\.txt$' && return 0
	echo "$1" | grep -v '^tools/perf/Documentation/' |
		grep -q -e '^tools/perf/' -e '^tools/lib/' -e '^tools/include/' -e '^tools/arch/' \
			-e '^tools/build/' -e '^tools/scripts/' -e '^tools/Makefile'
}
# needs_selftests FILES: the kselftests, and the UAPI headers they are
# built against (headers_install of the same tree)
needs_selftests() {
	echo "$1" | grep -q -e '^tools/testing/selftests/perf_events/' -e '^tools/testing/selftests/lib\.mk$' \
		-e '^tools/testing/selftests/kselftest' -e '^include/uapi/' -e '^arch/x86/include/uapi/' \
		-e '^arch/x86/entry/syscalls/' -e '^scripts/headers_install\.sh$' -e '^scripts/unifdef\.c$' \
		-e '^usr/include/Makefile$'
}
needs_tools() { needs_perf "$1" || needs_selftests "$1"; }

# result N COMMIT WHAT T0 OK SUBJ RESFILE LOG: one line per patch and walk
# (the step's seconds, and when it ended, in seconds from the walk's start)
W0=$(date +%s)
result() {
	if [ "$5" = 1 ]; then
		printf 'ok   %2d %-16s %4ds @%4ds %s\n' "$1" "$3" $(( $(date +%s) - $4 )) $(( $(date +%s) - W0 )) "$6"
		echo "$1 $2 ok" >> "$7"
	else
		printf 'FAIL %2d %-16s %s\n%s\n' "$1" "$3" "$6" "$(tail -n 15 "$8")"
		echo "$1 $2 fail $3 $8" >> "$7"
		echo "$1" >> "$B/failed"
	fi
}

# stop_at N: a walk failed at a patch before N, or at N
stop_at() { [ -s "$B/failed" ] && [ "$(sort -n "$B/failed" | head -n 1)" -le "$1" ]; }

# --ci: the files of the queue that the builds of HEAD compile, as objects
# (goals for kbuild, for perf's build); make check built HEAD in
# build/kernel and build/perf (make check-bisect-ci depends on it), with
# the configuration and flags of these walks, so its .cmd files say which
# .c files are objects.  A .c file the queue touches that is no object and
# is included by no object of the queue (as kernel/events/sideband_test.c
# is, by core.c) would never be compiled: fail.
head_built=0 kobjs= pobjs=
if [ $MODE = ci ]; then
	if [ -z "$(git -C build/linux status --porcelain --untracked-files=no)" ] &&
		[ -f build/kernel/vmlinux ] && [ -x build/perf/perf ] && [ -d build/selftests/perf_events ]; then
		head_built=1
	else
		echo "check-bisect: build/linux has uncommitted changes or build/kernel, build/perf or build/selftests is missing (make check-bisect-ci builds them): this walk builds HEAD too"
	fi
	[ -f build/kernel/vmlinux ] && [ -x build/perf/perf ] ||
		{ echo "check-bisect: --ci needs make check's builds of HEAD (build/kernel, build/perf): make kernel perf"; exit 1; }
	dotcmd() { echo "$1/$(dirname "$2")/.$(basename "$2" .c).o.cmd"; }
	unbuilt=
	own=$(git -C build/linux diff --name-only base..HEAD -- '*.c')
	for f in $own; do
		case $f in
		tools/testing/selftests/perf_events/*|tools/lib/perf/tests/*) continue ;;
		tools/lib/perf/*) continue ;; # libperf.a: perf's prepare builds it for any goal
		tools/perf/*)
			r=${f#tools/perf/}
			if [ -f "$(dotcmd build/perf "$r")" ]; then pobjs="$pobjs $r"; continue; fi
			grep -qF -- "$r" build/perf/*/.*.o.cmd build/perf/.*.o.cmd 2>/dev/null && continue ;;
		tools/*|Documentation/*|samples/*|scripts/*) continue ;;
		*)
			if [ -f "$(dotcmd build/kernel "$f")" ]; then kobjs="$kobjs $f"; continue; fi
			for o in $own; do
				d=$(dotcmd build/kernel "$o")
				[ -f "$d" ] && grep -qF -- "/linux/$f" "$d" && continue 2
			done ;;
		esac
		unbuilt="$unbuilt $f"
	done
	[ -z "$unbuilt" ] || {
		echo "check-bisect: the queue changes$unbuilt, which the guest configuration (build/kernel) or perf's build (build/perf) never compiles: no step could catch its breakage"
		exit 1; }
fi
# goals SRC OUT PREFIX FILES: the objects of FILES (.c) that exist in SRC,
# as OUT/PREFIX-relative goals
goals() {
	_s=$1 _o=$2 _p=$3; shift 3
	for _f in "$@"; do [ -f "$_s/$_p$_f" ] && printf ' %s%s.o' "$_o" "${_f%.c}"; done
}

# kernel_plan N COMMIT FILES: what the kernel walk does at patch N: none,
# whole (vmlinux), objs (--ci: the queue's objects), made (make check
# built it), same:K (--ci: the kernel files are those of patch K, the end
# of the series before, built there)
kernel_plan() {
	if [ $MODE = full ] || ! is_end $1; then
		if needs_kernel $1 "$3"; then
			[ $MODE = full ] && echo whole || echo objs
		elif [ $1 = "$alone" ]; then echo whole
		else echo none
		fi
		return
	fi
	[ $1 = "$total" ] && [ $head_built = 1 ] && { echo made; return; }
	_p=$(prev_end $1)
	if [ -n "$_p" ]; then
		_d=$(git -C build/linux diff --name-only "$(commit_of $_p)" "$2")
		[ -n "$_d" ] && needs_kernel 0 "$_d" || { echo "same:$_p"; return; }
	fi
	echo whole
}
# tools_plan N COMMIT FILES: perf|objs|- and +selftests, or none, made,
# same:K, as kernel_plan
tools_plan() {
	if [ $MODE = full ] || ! is_end $1; then
		_w=
		needs_perf "$3" && { [ $MODE = full ] && _w=perf || _w=objs; }
		needs_selftests "$3" && _w="${_w:--}+selftests"
		echo "${_w:-none}"
		return
	fi
	[ $1 = "$total" ] && [ $head_built = 1 ] && { echo made; return; }
	# what changed since the end of the series before: perf's build
	# reads only tools/ (no object of build/perf depends on a file
	# outside it), so perf's files the same as there are perf built
	# there.  The first series' end builds the whole perf in any case,
	# with make check's flags (-O3, -Werror), the base's files or not:
	# ccache has those of its objects that include no tools header the
	# queue changes
	_p=$(prev_end $1)
	_d=$(git -C build/linux diff --name-only "$(commit_of "${_p:-0}")" "$2")
	_w=
	if [ -n "$_p" ]; then
		[ -n "$_d" ] && needs_tools "$_d" || { echo "same:$_p"; return; }
	else
		_w=perf
	fi
	needs_perf "$_d" && _w=perf
	needs_selftests "$_d" && _w="${_w:--}+selftests"
	echo "$_w"
}

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
# differ from those $B/obj's .config was made from (or those are unknown),
# make kernel.sh configure from the fragments again (kernel.sh does only
# when the fragments change): an option a patch adds must come from the
# fragments, not from olddefconfig's default (off), or its code is never
# built.  Returns 0 when it did.  Going from a patch to an older one,
# options only go away: where the Kconfig files change without a new
# option and without a remaining option losing a dependency (which can
# make an option visible that the fragments set; a "depends on" that goes
# with its whole option makes nothing visible), kbuild's own syncconfig
# keeps every remaining option's value and drops the vanished ones, as
# configuring again would (tinyconfig, merging the fragments and
# olddefconfig: 30 to 40 s a step with the objects it recompiles).
cfg=
# kconfig_grows OLD NEW: from OLD to NEW, an option or a prompt appears
# (a config, source, prompt or type line comes), or a line goes that can
# hold a remaining option back or set it: a "depends on", "visible if", an
# "if" of a prompt or default, an if, menu or choice block, or a select or
# imply (also of an option that goes: what it selected falls back to its
# default).  The other lines of an option that goes are not counted.
kconfig_grows() {
	git -C "$B/linux" diff "$1" "$2" -- '*Kconfig*' | awk '
		/^\+[[:space:]]*((menu)?config|source|prompt|bool|tristate|int|hex|string|def_bool|def_tristate)([[:space:]]|$)/ { g = 1 }
		/^-[[:space:]]*(menu)?config[[:space:]]/ { gone = 1; next }
		/^-[[:space:]]*(if|endif|menu|endmenu|choice|endchoice)([[:space:]]|$)/ { g = 1 }
		/^-[[:space:]]*(if|endif|menu|endmenu|choice|endchoice|source|comment)([[:space:]]|$)/ { gone = 0; next }
		!/^-/ { gone = 0 }
		/^-[[:space:]]*(select|imply)[[:space:]]/ { g = 1 }
		gone { next }
		/^-[[:space:]]*(depends[[:space:]]+on|visible[[:space:]]+if)[[:space:]]/ { g = 1 }
		/^-[[:space:]]*(bool|tristate|int|hex|string|prompt|default|def_bool|def_tristate)[[:space:]].*[[:space:]]if[[:space:]]/ { g = 1 }
		END { exit !g }'
}
reconfigure() {
	_was=$cfg
	cfg=$(git -C "$B/linux" rev-parse HEAD)
	if [ -z "$_was" ] || kconfig_grows "$_was" HEAD; then
		rm -f "$B/obj/.fragments"
		return 0
	fi
	return 1
}

# seed (--ci): make check's build of HEAD (build/kernel, the guest
# configuration) becomes $B/obj, as if the kernel walk had built HEAD there
# itself: the build's own paths of the tree and the output directory
# (absolute in the .cmd files, so in every saved command line and
# dependency list) are made those of $B/linux and $B/obj, and every file
# of it gets a time after the checkout of HEAD in $B/linux.  Each step
# back then recompiles what kbuild finds changed since HEAD, as for any
# other step.  Without it, the first whole build (series 3's end) compiles
# every object again, and ccache has none of them: a configuration
# without series 5's options makes another include/generated/autoconf.h,
# which every object includes.  Only a whole build of HEAD made by
# kernel.sh from a tree without changes is taken (its .commit).  objtool's
# dependency lists hold paths relative to the tree's tools/objtool
# (ccache's CCACHE_BASEDIR), which name build/kernel: objtool is built
# again in the copy, before the times are set, and every object depends on
# it.  Then a kbuild of HEAD's vmlinux in the copy checks it: it must
# compile nothing (anything it compiles is right afterwards, and named).
# Writes $B/seeded once build/kernel is copied, or will not be: .ci/run
# starts make check, which may build in build/kernel (sparse), then.
seed() {
	_r=$(pwd -P) _t=$(commit_of $total)
	_l=$B/log.seed
	: > "$_l"
	if [ $head_built != 1 ] || [ "$(cat build/kernel/.commit 2>/dev/null)" != "$_t" ] ||
		! sh scripts/config-check.sh build/kernel/.config config/guest.config > /dev/null 2>&1; then
		echo "check-bisect: build/kernel holds no whole build of HEAD ($_t) by kernel.sh in the guest configuration: the kernel walk builds without it"
		return 1
	fi
	rm -rf "$B/obj" "$B/obj.new" && cp -a build/kernel "$B/obj.new" >> "$_l" 2>&1
	_c=$?
	: > "$B/seeded"
	[ $_c = 0 ] && mv "$B/obj.new" "$B/obj" && rm -f "$B/obj/.commit" &&
		git -C "$B/linux" checkout -q --detach "$_t" >> "$_l" 2>&1 || return 1
	grep -rlIZF -e "$_r/build/linux" -e "$_r/build/kernel" "$B/obj" | xargs -0 -r sed -i \
		-e "s#$_r/build/linux\([^[:alnum:]._-]\|\$\)#$_r/$B/linux\1#g" \
		-e "s#$_r/build/kernel\([^[:alnum:]._-]\|\$\)#$_r/$B/obj\1#g" || return 1
	ln -sfn "$_r/$B/linux" "$B/obj/source" || return 1
	(. scripts/kbuild-env.sh && kmake "$B/linux" "$_r/$B/obj" -j"$(nproc)" tools/objtool) >> "$_l" 2>&1 < /dev/null || return 1
	touch "$B/stamp" && find "$B/obj" -exec touch -h -r "$B/stamp" {} + || return 1
	if grep -rlIF -e "$_r/build/linux/" -e "$_r/build/kernel/" -e "/kernel/tools/objtool/" "$B/obj" | grep -v '/build\.log$' >> "$_l"; then
		echo "check-bisect: paths of build/kernel left in $B/obj (listed in $_l)"
		return 1
	fi
	_k=$(wc -l < "$_l")
	(. scripts/kbuild-env.sh && kmake "$B/linux" "$_r/$B/obj" -j"$(nproc)" vmlinux) >> "$_l" 2>&1 < /dev/null || return 1
	_n=$(tail -n +$((_k + 1)) "$_l" | grep -c '^  CC ')
	cfg=$_t
	echo "check-bisect: the kernel walk starts from make check's build of HEAD (build/kernel; a kbuild of HEAD there compiled $_n objects)"
}

kernel_walk() {
	if [ $MODE = ci ] && ! seed; then
		[ -s "$B/log.seed" ] && echo "check-bisect: build/kernel not taken as the kernel walk's start (log: $B/log.seed): the walk builds without it"
		rm -rf "$B/obj" "$B/obj.new"
		cfg=
	fi
	: > "$B/seeded"
	n=$total
	for c in $(echo "$commits" | tac); do
		i=$n n=$((n - 1))
		files=$(files_of "$c")
		plan=$(kernel_plan $i "$c" "$files")
		[ "$plan" = none ] && continue
		stop_at $i && continue
		subj=$(git -C build/linux log -1 --format=%s "$c")
		ok=1 what=- t0=$(date +%s)
		case $plan in
		made|same:*)
			[ $plan = made ] && what="kernel(make)" || what="kernel=${plan#same:}"
			result $i "$c" "$what" "$t0" 1 "$subj" "$B/kernel.res" /dev/null
			continue ;;
		esac
		: > "$B/log"
		if ! git -C "$B/linux" checkout -q --detach "$c" >> "$B/log" 2>&1; then
			result $i "$c" checkout "$t0" 0 "$subj" "$B/kernel.res" "$B/log"
			return
		fi
		if [ $plan = whole ] && { needs_kernel $i "$files" || { [ $MODE = ci ] && [ $i != "$alone" ]; }; }; then
			what=kernel
			reconfigure && what=kernel+config
			# vmlinux, not bzImage (the same objects, without the
			# compressed image); no UAPI headers (the tools walk
			# installs its own)
			CONFIG_CHECK=0 KERNEL_TARGETS=vmlinux HEADERS=0 \
				sh scripts/kernel.sh "$B/linux" "$B/obj" config/guest.config >> "$B/log" 2>&1 || ok=0
		elif [ $plan = objs ]; then
			# kbuild compiles those of the queue's objects that
			# this patch changes or that include what it changes
			what=objs
			reconfigure && what=objs+config
			g=$(goals "$B/linux" "" "" $kobjs)
			CONFIG_CHECK=0 KERNEL_TARGETS="${g:-prepare}" HEADERS=0 \
				sh scripts/kernel.sh "$B/linux" "$B/obj" config/guest.config >> "$B/log" 2>&1 || ok=0
		fi
		if [ $ok = 1 ] && [ $i = "$alone" ]; then
			what="${what#-}+alone"
			reconfigure || :
			sh scripts/check-alone.sh "$B" "$first" >> "$B/log" 2>&1 || ok=0
		fi
		[ $ok = 1 ] || cp "$B/log" "$B/log.$i"
		result $i "$c" "$what" "$t0" $ok "$subj" "$B/kernel.res" "$B/log.$i"
	done
}

# The shell tests: perf's build runs shellcheck on them when it is
# installed, at least 0.6.0, and NO_SHELLCHECK is not 1 (Makefile.perf);
# the walk checks the shell tests a patch changes under the same rule
shellcheck=0
if [ "${NO_SHELLCHECK:-}" != 1 ] && command -v shellcheck > /dev/null &&
	shellcheck --version | awk '/^version:/ { split($2, v, "."); exit !(v[1] > 0 || v[2] >= 6) }'; then
	shellcheck=1
fi

# perf's build directories.  $PD: perf built as perf's DEBUG=1 does (-O0,
# -g, assertions: a fraction of the compile time of the default -O3, whose
# build of HEAD is make check's): every build of the full walk; in --ci
# the first whole build (the first series' end) and every patch's perf
# objects after it, each compiling only what its patch changes.  $P
# (--ci): the other series' ends, whole, with make check's flags (-O3,
# -Werror), so that they take make check's objects from ccache where the
# files are the same.  $P's path relative to the tree's tools/perf must
# then be build/perf's relative to build/linux/tools/perf (../../../perf):
# perf's command lines name the output directory (-I), and ccache hashes
# them relative to the compiler's directory
P=$T/perf PD=$T/perf.dbg
# $FD: the features a detecting build in $PD found (perf's FEATURE-DUMP
# and those of Makefile.config's own checks, by the test programs that
# built), given to $PD's later builds (perf.sh: PERF_FEATURES_DUMP) so
# that none runs perf's feature checks again (10 s a build).  Taken only
# if the same build with them right after compiles nothing (the flags are
# the same); dropped at a patch that changes the feature checks, and at
# the start of a walk
FD=$PD/FEATURE-DUMP.walk
changes_features() { echo "$1" | grep -q -e '^tools/build/' -e '^tools/perf/Makefile\.config$'; }
# features TARGETS: write $FD after a detecting build of TARGETS (empty:
# the whole perf) in $PD
features() {
	rm -f "$FD" "$FD.new"
	{
		cat "$PD/FEATURE-DUMP" || return 1
		for _f in "$PD"/feature/test-*.make.output; do
			_x=${_f##*/test-} _x=${_x%.make.output}
			[ "$_x" != all ] || continue
			grep -q "^feature-$_x=" "$PD/FEATURE-DUMP" && continue
			if [ -f "$PD/feature/test-$_x.bin" ]; then echo "feature-$_x=1"; else echo "feature-$_x=0"; fi
		done
	} > "$FD.new" || return 1
	PERF_DEBUG=1 PERF_FEATURES_DUMP="$FD.new" PERF_TARGETS="$1" nice -n 10 sh scripts/perf.sh "$T/linux" "$PD" || return 1
	_n=$(grep -c -e '^  CC ' -e '^  CXX ' "$PD/build.log")
	echo "check-bisect: the same perf build with the features of $FD compiled $_n objects"
	[ "$_n" = 0 ] && mv "$FD.new" "$FD"
}
# perf_dbg TARGETS: build TARGETS (empty: the whole perf) in $PD, with $FD
# when it holds
perf_dbg() {
	changes_features "$files" && rm -f "$FD"
	if [ -f "$FD" ]; then
		PERF_DEBUG=1 PERF_FEATURES_DUMP="$FD" PERF_TARGETS="$1" nice -n 10 sh scripts/perf.sh "$T/linux" "$PD"
	else
		PERF_DEBUG=1 PERF_TARGETS="$1" nice -n 10 sh scripts/perf.sh "$T/linux" "$PD" || return 1
		features "$1" || :
	fi
}
tools_walk() {
	n=0
	rm -f "$FD" "$PD/perf"
	for c in $commits; do
		n=$((n + 1))
		files=$(files_of "$c")
		plan=$(tools_plan $n "$c" "$files")
		[ "$plan" = none ] && continue
		stop_at $n && return
		subj=$(git -C build/linux log -1 --format=%s "$c")
		ok=1 what= t0=$(date +%s)
		case $plan in
		made|same:*)
			what="tools=${plan#same:}"
			[ $plan = made ] && what="perf(make)"
			result $n "$c" "$what" "$t0" 1 "$subj" "$B/tools.res" /dev/null
			continue ;;
		esac
		: > "$T/log"
		if ! git -C "$T/linux" checkout -q --detach "$c" >> "$T/log" 2>&1; then
			result $n "$c" checkout "$t0" 0 "$subj" "$B/tools.res" "$T/log"
			return
		fi
		case $plan in
		perf*)
			what=perf
			if [ $MODE = ci ] && [ -x "$PD/perf" ]; then
				PERF_DEBUG=0 nice -n 10 sh scripts/perf.sh "$T/linux" "$P" >> "$T/log" 2>&1 || ok=0
			else
				[ $MODE = ci ] && what=perf-O0
				perf_dbg "" >> "$T/log" 2>&1 || ok=0
			fi ;;
		objs*)
			what=perf-objs
			mkdir -p "$PD"
			g=$(goals "$T/linux/tools/perf" "$(realpath "$PD")/" "" $pobjs)
			# common-cmds.h (the man pages' NAME lines, made by
			# generate-cmdlist.sh from command-list.txt) is compiled
			# into builtin-help.o
			echo "$files" | grep -q -e '^tools/perf/Documentation/perf-.*\.txt$' \
				-e '^tools/perf/command-list\.txt$' -e '^tools/perf/util/generate-cmdlist\.sh$' &&
				g="$g $(realpath "$PD")/builtin-help.o"
			perf_dbg "${g:-prepare}" >> "$T/log" 2>&1 || ok=0
			# the shell tests the patch changes, checked as perf's
			# build checks them all (tools/perf/tests/Build)
			if [ $ok = 1 ] && [ $shellcheck = 1 ]; then
				for f in $(echo "$files" | grep '^tools/perf/tests/shell/.*\.sh$'); do
					[ -x "$T/linux/$f" ] || continue
					(cd "$T/linux/tools/perf" && shellcheck -a -S warning "${f#tools/perf/}") >> "$T/log" 2>&1 ||
						{ echo "shellcheck: $f" >> "$T/log"; ok=0; }
				done
			fi ;;
		esac
		if [ $ok = 1 ]; then
			case $plan in
			*selftests)
				what="${what:+$what+}selftests"
				{ mkdir -p "$T/hdr" && . scripts/kbuild-env.sh &&
					kmake "$T/linux" "$(realpath "$T/hdr")" headers_install &&
					sh scripts/selftests.sh "$T/linux" "$T/selftests" "$T/hdr"; } >> "$T/log" 2>&1 || ok=0 ;;
			esac
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
# for .ci/run, which gives the walk its priority back after make check
echo $tpid > "$B/tools.pid"
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
	[ "$(kernel_plan $i "$c" "$files")" = none ] || k=1
	[ "$(tools_plan $i "$c" "$files")" = none ] || t=1
	[ $k = 0 ] || grep -q "^$i $c ok" "$B/kernel.res" 2>/dev/null || missing="$missing $i"
	[ $t = 0 ] || grep -q "^$i $c ok" "$B/tools.res" 2>/dev/null || missing="$missing $i"
	[ $k = 1 ] || [ $t = 1 ] ||
		printf 'ok   %2d %-16s %4ds @%4ds %s\n' $i - 0 $(( $(date +%s) - W0 )) "$(git -C build/linux log -1 --format=%s "$c")"
done
[ -z "$missing" ] || { echo "check-bisect: no result for patch(es)$missing (a walk ended early)"; exit 1; }
if [ $MODE = ci ]; then
	echo "check-bisect: all $n patches build (the queue's files at every patch, the whole kernel and perf at the end of every series); series $first alone passes its kselftests"
else
	echo "check-bisect: all $n patches build; series $first alone passes its kselftests"
fi
