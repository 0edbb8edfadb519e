#!/bin/sh
# make tree: a patch that does not apply stops with its name and git am's output.
set -eu
d=$(mktemp -d "$(pwd)/build/harness-tree.XXXXXX")
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/linux" "$d/patches"
git -C "$d/linux" init -q
echo hello > "$d/linux/README"
git -C "$d/linux" add README
git -C "$d/linux" -c user.name=t -c user.email=t@t commit -q -m base
git -C "$d/linux" tag base
cat > "$d/patches/0001-broken.patch" <<'P'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Persistent Events Project <devel@perf-persistent.invalid>
Date: Sat, 1 Jan 2000 00:00:00 +0000
Subject: [PATCH] broken: context that is not in the tree

---
 README | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/README b/README
--- a/README
+++ b/README
@@ -1 +1 @@
-goodbye
+farewell
P
echo 0001-broken.patch > "$d/patches/series"
rc=0
LINUX=$d/linux PATCHES=$d/patches sh scripts/tree.sh > "$d/out" 2>&1 || rc=$?
cat "$d/out"
[ $rc != 0 ] || { echo "tree.sh succeeded on a broken patch"; exit 1; }
grep -q 'patch 0001-broken.patch does not apply' "$d/out"
grep -q 'patch failed\|does not match\|Patch failed' "$d/out"
