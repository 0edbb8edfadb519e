#!/bin/sh
# check-patches.sh: a patch that checkpatch --strict does not pass fails by
# its own name, in a series of several (one checkpatch run takes them all
# and each report is split off by its header) and alone; the patches
# around it still pass.  The bad patch is a queue patch with trailing
# whitespace on a line it adds.  A pass is remembered, a failure is not,
# and a patch that changes after its pass is checked again.
set -eu
top=$(pwd)
d=$(mktemp -d "$top/build/harness-checkpatch.XXXXXX")
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/patches/1-fixes" "$d/tests"
cp tests/checkpatch-exceptions.txt "$d/tests/"
a=1-fixes/0001-perf-core-Deliver-namespaces-and-cgroup-records-to-C.patch
b=1-fixes/0002-perf-core-Count-events-that-ask-only-for-mmap2-recor.patch
c=1-fixes/0003-perf-core-Move-side-band-list-entries-in-perf_pmu_mi.patch
cp "patches/$a" "patches/$c" "$d/patches/1-fixes/"
# the first added line of code gets a trailing blank
awk '!done && /^\+[^+]/ { print $0 " "; done = 1; next } { print }' "patches/$b" > "$d/patches/$b"
! cmp -s "patches/$b" "$d/patches/$b"
printf '%s\n' "$a" "$b" "$c" > "$d/patches/series"
(cd "$d" && LINUX=$top/build/linux sh "$top/scripts/check-patches.sh" "$d/res3") > "$d/out3" 2>&1
cat "$d/res3" "$d/out3"
[ "$(grep -c '^PASS checkpatch/' "$d/res3")" = 2 ]
grep -q "^PASS checkpatch/$a\$" "$d/res3"
grep -q "^PASS checkpatch/$c\$" "$d/res3"
grep -q "^FAIL checkpatch/$b total: 1 errors" "$d/res3"
grep -q 'trailing whitespace' "$d/out3"
echo "$b" > "$d/patches/series"
(cd "$d" && LINUX=$top/build/linux sh "$top/scripts/check-patches.sh" "$d/res1") > "$d/out1" 2>&1
cat "$d/res1"
[ "$(wc -l < "$d/res1")" = 1 ]
grep -q "^FAIL checkpatch/$b total: 1 errors" "$d/res1"
# the two passes are remembered, the failure is not: the same again
[ "$(ls "$d/build/cache/checkpatch" | wc -l)" = 2 ]
printf '%s\n' "$a" "$b" "$c" > "$d/patches/series"
(cd "$d" && LINUX=$top/build/linux sh "$top/scripts/check-patches.sh" "$d/res3b") > "$d/out3b" 2>&1
cmp "$d/res3" "$d/res3b"
# a remembered patch that changes is checked again
awk '!done && /^\+[^+]/ { print $0 " "; done = 1; next } { print }' "patches/$a" > "$d/patches/$a"
(cd "$d" && LINUX=$top/build/linux sh "$top/scripts/check-patches.sh" "$d/res3c") > "$d/out3c" 2>&1
cat "$d/res3c"
grep -q "^FAIL checkpatch/$a total: 1 errors" "$d/res3c"
grep -q "^FAIL checkpatch/$b total: 1 errors" "$d/res3c"
grep -q "^PASS checkpatch/$c\$" "$d/res3c"
