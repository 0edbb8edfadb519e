#!/bin/sh
# check-patches.sh: a patch that checkpatch --strict does not pass fails by
# its own name, among others and alone; the patches around it still pass.
# The bad patch is a queue patch with trailing whitespace on a line it
# adds.  A pass is remembered, a failure is not, and a patch that changes
# after its pass is checked again.  Each patch is checked as it would be
# alone: a CamelCase word that checkpatch, in one run over several patches,
# would take from an earlier patch's file is reported.
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
# spoil P: patch P with a trailing blank on its first added line of code
spoil() { awk '!done && /^\+[^+]/ { print $0 " "; done = 1; next } { print }' "patches/$1" > "$d/patches/$1"; }
spoil "$b"
if cmp -s "patches/$b" "$d/patches/$b"; then echo "the bad patch is not changed"; exit 1; fi
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
spoil "$a"
(cd "$d" && LINUX=$top/build/linux sh "$top/scripts/check-patches.sh" "$d/res3c") > "$d/out3c" 2>&1
cat "$d/res3c"
grep -q "^FAIL checkpatch/$a total: 1 errors" "$d/res3c"
grep -q "^FAIL checkpatch/$b total: 1 errors" "$d/res3c"
grep -q "^PASS checkpatch/$c\$" "$d/res3c"
# one run a patch: p2 uses a CamelCase word declared in the file p1
# touches; checkpatch run over both at once reports nothing for p2
# mkpatch N FILE: a one-line patch N to FILE
mkpatch() {
	cat <<P
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Persistent Events Project <devel@perf-persistent.invalid>
Date: Sat, 1 Jan 2000 00:00:00 +0000
Subject: [PATCH] perf/core: Test patch $1

Test patch $1 of the checkpatch harness self-test.

Signed-off-by: Persistent Events Project <devel@perf-persistent.invalid>
---
 $2 | 1 +
 1 file changed, 1 insertion(+)

diff --git a/$2 b/$2
index 1111111..2222222 100644
--- a/$2
+++ b/$2
@@ -10,6 +10,7 @@
 #include <linux/perf_event.h>
 #include <linux/vmalloc.h>
 #include <linux/slab.h>
+static int zzq_plain$1 = kSearchStrength;
 #include <linux/circ_buf.h>
 #include <linux/poll.h>
 #include <linux/nospec.h>
--
2.39.0
P
}
mkdir -p "$d/patches/t"
mkpatch 1 lib/zstd/compress/zstd_compress_internal.h > "$d/patches/t/p1.patch"
mkpatch 2 kernel/events/ring_buffer.c > "$d/patches/t/p2.patch"
printf '%s\n' t/p1.patch t/p2.patch > "$d/patches/series"
(cd "$d" && LINUX=$top/build/linux sh "$top/scripts/check-patches.sh" "$d/res2") > "$d/out2" 2>&1
cat "$d/res2" "$d/out2"
grep -q "^FAIL checkpatch/t/p2.patch total: 0 errors, 0 warnings, 1 checks" "$d/res2"
grep -q "CamelCase.*kSearchStrength" "$d/out2"
