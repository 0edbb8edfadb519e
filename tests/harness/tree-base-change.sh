#!/bin/sh
# make tree when the series names another base than build/linux was
# unpacked from: it refuses while the tree holds work that is not exported,
# and otherwise unpacks the new base and applies the series on it.
set -eu
d=$(mktemp -d "$(pwd)/build/harness-rebase.XXXXXX")
trap 'rm -rf "$d"' EXIT
g() { git -C "$d/linux" -c user.name=t -c user.email=t@t "$@"; }
mkdir -p "$d/linux" "$d/src/linux-x" "$d/patches"
git -C "$d/linux" init -q
echo old > "$d/linux/README"
g add README
g commit -q -m "base: Debian linux-source-6.1 6.1.192-3"
g tag base
echo extra > "$d/linux/EXTRA"
g add EXTRA
g commit -q -m "work not exported"
echo "0 $(git -C "$d/linux" rev-parse HEAD~1)" > "$d/linux/.git/harness-series"
echo new > "$d/src/linux-x/README"
tar -cJf "$d/src.tar.xz" -C "$d/src" linux-x
printf 'Subject: x\n\nBase: Debian linux-source-6.12 6.12.117-1~deb12u1\n' > "$d/patches/0000-cover-letter.patch"
: > "$d/patches/series"
run() { LINUX=$d/linux PATCHES=$d/patches SRC_TARBALL=$d/src.tar.xz sh scripts/tree.sh; }
rc=0
run > "$d/out" 2>&1 || rc=$?
cat "$d/out"
[ $rc != 0 ] || { echo "tree.sh threw away a commit that was not exported"; exit 1; }
grep -q "has commits that are not in" "$d/out"
[ "$(git -C "$d/linux" log -1 --format=%s)" = "work not exported" ]
g reset -q --hard HEAD~1
run > "$d/out" 2>&1
cat "$d/out"
grep -q "is on 'linux-source-6.1 6.1.192-3', the series wants 'linux-source-6.12 6.12.117-1~deb12u1': unpacking again" "$d/out"
git -C "$d/linux" log -1 --format=%s base | grep -q '^base: Debian linux-source-6.12 '
[ "$(cat "$d/linux/README")" = new ]
