#!/bin/sh
# patches/ is split into series that stand alone in order: every series
# directory has a cover letter whose base-commit: is the base and whose
# prerequisite-patch-id: lines are exactly the patches of the series before
# it (none for the first, which applies to the base alone); patches/series
# lists every patch file of every directory once, series after series; the
# top cover letter names every series by its subject.
set -eu
P=patches
fail() { echo "series-layout: $*"; exit 1; }
base=$(git -C build/linux rev-parse base)
grep -v -e '^#' -e '^$' $P/series > /tmp/series-layout.$$
trap 'rm -f /tmp/series-layout.$$*' EXIT
dirs=$(cut -d/ -f1 /tmp/series-layout.$$ | uniq)
[ "$(echo "$dirs" | wc -l)" -ge 2 ] || fail "patches/series names fewer than two series"
[ "$(echo "$dirs" | sort | uniq -d)" = "" ] || fail "a series is split in two in patches/series"
ls -d $P/*/ | sed "s|^$P/||; s|/$||" | sort > /tmp/series-layout.$$.d
[ "$(echo "$dirs" | sort)" = "$(cat /tmp/series-layout.$$.d)" ] ||
	fail "series directories ($(paste -sd' ' /tmp/series-layout.$$.d)) differ from patches/series ($(echo $dirs))"
before=0
for d in $dirs; do
	c=$P/$d/0000-cover-letter.patch
	[ -f "$c" ] || fail "$d has no cover letter"
	(cd $P && ls "$d"/[0-9]*.patch | grep -v '/0000-cover-letter') > /tmp/series-layout.$$.f
	grep "^$d/" /tmp/series-layout.$$ > /tmp/series-layout.$$.s
	cmp -s /tmp/series-layout.$$.f /tmp/series-layout.$$.s ||
		fail "$d: its patch files and its lines in patches/series differ"
	grep -q "^base-commit: $base\$" "$c" || fail "$d: cover letter's base-commit: is not the base"
	pre=$(grep -c '^prerequisite-patch-id: ' "$c" || true)
	[ "$pre" = "$before" ] || fail "$d: $pre prerequisite patches, the series before it have $before"
	grep -q "Subject: \[PATCH 0*0/0*$(wc -l < /tmp/series-layout.$$.s)\]" "$c" ||
		fail "$d: cover letter does not number its own patches"
	subj=$(awk '/^Subject:/ {s=$0; f=1; next} f && /^[ \t]/ {s=s $0; next} {f=0} END {sub(/^Subject: \[PATCH[^]]*\] */, "", s); print s}' "$c")
	case $subj in "("*) fail "$d: cover letter has no subject" ;; esac
	tr '\n' ' ' < $P/0000-cover-letter.patch | tr -s ' \t' ' ' | grep -qF "$subj" ||
		fail "$d: the top cover letter does not name '$subj'"
	before=$((before + $(wc -l < /tmp/series-layout.$$.s)))
done
echo "series-layout: $(echo $dirs) ($before patches)"
