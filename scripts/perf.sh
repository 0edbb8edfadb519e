#!/bin/sh
# Usage: perf.sh SRC OUT -- build SRC/tools/perf into OUT with a lean feature
# set (no python/perl/gtk/babeltrace/jvmti/libunwind/slang/numa/bpf/crypto).
# PERF_PYTHON=1: with the python binding (perf.so, as distributions build
# it), for Debian's /usr/bin/python3 (python3-dev).
# PERF_DEBUG=1: perf's own DEBUG=1 build (no -O3, so -O0, with -g and
# assertions), which check-bisect's tools walk uses for every patch: it
# compiles in a fraction of the time, and the default build of HEAD is
# make check's.
# PERF_TARGETS: goals instead of the whole build (check-bisect --ci: the
# objects of the files the queue touches, as absolute paths under OUT),
# given to Makefile.perf in one run: tools/perf/Makefile would run
# Makefile.perf, its feature checks and its prepare once per goal (3 s
# each).
# PERF_FEATURES_DUMP: a file of perf's feature-<name>=<0|1> lines, given
# as FEATURES_DUMP: perf's build then runs no feature check (10 of the
# 14 s of a build with nothing to compile).  It must hold every feature
# the build asks for, the basic ones of FEATURE-DUMP and those
# Makefile.config checks on its own (llvm-perf, cxa-demangle, ...), or
# the flags differ from those of a detecting build (check-bisect.sh
# writes one from a detecting build and checks that).
set -eu
SRC=$1; OUT=$2
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
export CCACHE_DIR=${CCACHE_DIR:-$(pwd)/build/ccache} CCACHE_DEPEND=1
# One cache entry per object whichever tree it is built from: paths under
# the repository are hashed relative to the compiler's directory (the
# tree's tools/perf), the same for build/linux -> build/perf as for
# build/bisect/t/linux -> build/bisect/t/perf, so that a build of another
# tree with the same flags takes the objects of the files it shares from
# make check's (not check-bisect's: PERF_DEBUG=1, and -g objects hash their
# directory, below).  tools/build passes
# -Wp,-MT,<absolute object path>, which ccache would hash: it only names
# the target in the .d file, and fixdep ignores that name.  Objects built
# with -g (libperf, the test workloads: 14 of 430) still hash their
# directory and are compiled again.  The compiler check is set here, not
# left to the caller's environment (kbuild-env.sh sets it to content), as
# it is part of every key.
export CCACHE_BASEDIR=$(pwd) CCACHE_IGNOREOPTIONS='-Wp,-MT,*' CCACHE_COMPILERCHECK=content
log=$OUT/build.log
py=NO_LIBPYTHON=1
dbg=
[ "${PERF_DEBUG:-0}" = 1 ] && dbg=DEBUG=1
[ "${PERF_PYTHON:-0}" = 1 ] && py=PYTHON=/usr/bin/python3
mf=
[ -n "${PERF_TARGETS:-}" ] && mf="-f Makefile.perf"
fd=
[ -n "${PERF_FEATURES_DUMP:-}" ] && fd="FEATURES_DUMP=$(realpath "$PERF_FEATURES_DUMP")"
# perf's default -Werror, as its maintainers build it: a warning fails
if ! make -C "$SRC/tools/perf" $mf O="$OUT" CC="ccache gcc" -j"$(nproc)" \
	$dbg $py $fd NO_LIBPERL=1 NO_GTK2=1 NO_LIBBABELTRACE=1 NO_JVMTI=1 \
	NO_LIBUNWIND=1 NO_SLANG=1 NO_LIBNUMA=1 NO_LIBBPF=1 NO_BPF_SKEL=1 \
	NO_LIBCRYPTO=1 NO_SDT=1 NO_LIBCAP=1 NO_LIBDEBUGINFOD=1 ${PERF_TARGETS:-} >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	echo "perf: build of $SRC/tools/perf failed (full log: $log)" >&2
	exit 1
fi
echo "perf: ${PERF_TARGETS:-$OUT/perf}"
