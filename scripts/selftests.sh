#!/bin/sh
# Usage: selftests.sh SRC OUT KBUILD -- build the perf_events kselftests of
# SRC into OUT/perf_events against the UAPI headers installed in KBUILD.
set -eu
SRC=$1; OUT=$2; KB=$(realpath "$3")
mkdir -p "$OUT/perf_events"
OUT=$(realpath "$OUT")
log=$OUT/build.log
if ! make -C "$SRC/tools/testing/selftests/perf_events" OUTPUT="$OUT/perf_events" \
	KHDR_INCLUDES="-isystem $KB/usr/include" CC=gcc >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	echo "selftests: build of perf_events selftests failed (full log: $log)" >&2
	exit 1
fi
echo "selftests: $OUT/perf_events"
