#!/bin/sh
# Rewrite patches/ from build/linux (base..HEAD): git format-patch with
# stable output, keeping the subject and text of the existing cover letter.
set -eu
LINUX=${LINUX:-build/linux}
PATCHES=${PATCHES:-patches}
die() { echo "export: $*" >&2; exit 1; }
[ -z "$(git -C "$LINUX" status --porcelain --untracked-files=no)" ] ||
	die "$LINUX has uncommitted changes: commit them first"
n=$(git -C "$LINUX" rev-list --count base..HEAD)
[ "$n" -gt 0 ] || die "no commits in $LINUX after base"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --full-index: abbreviated blob ids grow with the repository's size, so
# a fresh clone would otherwise rewrite every patch's index lines.
git -C "$LINUX" -c user.name="Persistent Events Project" \
	-c user.email=devel@perf-persistent.invalid format-patch -q --zero-commit --no-signature --cover-letter --full-index \
	--base=base -o "$tmp/out" base..HEAD
cover=$PATCHES/0000-cover-letter.patch
gen=$tmp/out/0000-cover-letter.patch
if [ -f "$cover" ]; then
	# Old subject (possibly folded) and blurb (up to the shortlog).
	subj=$(awk '/^Subject:/ {s=$0; f=1; next} f && /^[ \t]/ {s=s $0; next} {f=0} END {sub(/^Subject: \[PATCH[^]]*\] */, "", s); print s}' "$cover")
	awk 'hdr==0 && /^$/ {hdr=1; next} hdr==1 && /^[^ \t].* \([0-9]+\):$/ {exit} hdr==1 {print}' "$cover" > "$tmp/blurb"
else
	subj="persistent perf events and per-CPU side-band channels"
	printf '%s\n\n' "(cover letter text: edit $cover, then make export)" > "$tmp/blurb"
fi
SUBJ=$subj awk -v blurb="$tmp/blurb" '
	/^Subject: / && !s { sub(/\*\*\* SUBJECT HERE \*\*\*/, ENVIRON["SUBJ"]); s=1 }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurb) > 0) print l; skip=1; next }
	skip && /^$/ { skip=0; next }
	{ skip=0; print }' "$gen" > "$tmp/cover"
mv "$tmp/cover" "$gen"
# The cover letter's date is the export time: pin it to the last commit's.
date=$(git -C "$LINUX" log -1 --format='%aD' HEAD)
sed -i "s/^Date: .*/Date: $date/" "$gen"
rm -f "$PATCHES"/*.patch
cp "$tmp"/out/*.patch "$PATCHES"/
ls "$tmp/out" | grep -v '^0000-cover-letter' > "$PATCHES/series"
echo "export: $n patches in $PATCHES"
# make tree must see the tree as up to date with the new series.
echo "$(PATCHES=$PATCHES sh "$(dirname "$0")/series-hash.sh") $(git -C "$LINUX" rev-parse HEAD)" \
	> "$LINUX/.git/harness-series"
