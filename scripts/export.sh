#!/bin/sh
# Rewrite patches/ from build/linux (base..HEAD), git format-patch with
# stable output.  The queue is split into series, one directory each
# (patches/<n>-<name>/, with its own cover letter and base-commit:), and
# patches/series lists every patch, in order, as <dir>/<file>.
# patches/0000-cover-letter.patch heads the whole queue.  The subject and
# text of every existing cover letter are kept.
#
# A commit belongs to the series of the patch of the same subject in the
# old patches/series; a commit with a new subject goes with the commit
# before it (the first series for the first commit).  SERIES="DIR:N ..."
# names the series and their sizes instead (to split the queue anew).
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

git_fp() {
	git -C "$LINUX" -c user.name="Persistent Events Project" \
		-c user.email=devel@perf-persistent.invalid format-patch -q \
		--zero-commit --no-signature --cover-letter --full-index \
		--base=base "$@"
}

# The subject of a patch or cover letter, unfolded, without "[PATCH ...]".
subject() {
	awk '/^Subject:/ {s=$0; f=1; next} f && /^[ \t]/ {s=s $0; next} {f=0}
		END {sub(/^Subject: \[PATCH[^]]*\] */, "", s); print s}' "$1"
}

# cover OLD GEN LASTCOMMIT: GEN with the subject and blurb of OLD (if any)
# and the date of LASTCOMMIT.
cover() {
	if [ -f "$1" ]; then
		subj=$(subject "$1")
		awk 'hdr==0 && /^$/ {hdr=1; next} hdr==1 && /^[^ \t].* \([0-9]+\):$/ {exit} hdr==1 {print}' \
			"$1" > "$tmp/blurb"
	else
		subj="(subject: edit $1, then make export)"
		printf '%s\n\n' "(cover letter text: edit $1, then make export)" > "$tmp/blurb"
	fi
	SUBJ=$subj awk -v blurb="$tmp/blurb" '
		/^Subject: / && !s { sub(/\*\*\* SUBJECT HERE \*\*\*/, ENVIRON["SUBJ"]); s=1 }
		/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurb) > 0) print l; skip=1; next }
		skip && /^$/ { skip=0; next }
		{ skip=0; print }' "$2" > "$tmp/cover"
	# The cover letter's date is the export time: pin it to the last commit's.
	date=$(git -C "$LINUX" log -1 --format='%aD' "$3")
	sed "s/^Date: .*/Date: $date/" "$tmp/cover" > "$2"
}

# Which series each commit is in: $tmp/map, "<commit> <dir>" a line.
git -C "$LINUX" rev-list --reverse base..HEAD > "$tmp/commits"
if [ -n "${SERIES:-}" ]; then
	for s in $SERIES; do
		k=${s##*:}
		while [ "$k" -gt 0 ]; do echo "${s%:*}"; k=$((k - 1)); done
	done > "$tmp/dirs"
	[ "$(wc -l < "$tmp/dirs")" -eq "$n" ] ||
		die "SERIES='$SERIES' has $(wc -l < "$tmp/dirs") patches, $LINUX has $n"
	paste -d' ' "$tmp/commits" "$tmp/dirs" > "$tmp/map"
else
	[ -f "$PATCHES/series" ] || die "no $PATCHES/series: set SERIES='DIR:N ...'"
	grep -v -e '^#' -e '^$' "$PATCHES/series" | while read -r p; do
		case $p in */*) ;; *) die "$PATCHES/series: $p is in no series directory: set SERIES='DIR:N ...'" ;; esac
		printf '%s\t%s\n' "$(subject "$PATCHES/$p")" "${p%%/*}"
	done > "$tmp/subjects"
	dir=$(head -n 1 "$tmp/subjects" | cut -f2)
	while read -r c; do
		s=$(git -C "$LINUX" log -1 --format=%s "$c")
		d=$(awk -F'\t' -v s="$s" '$1 == s {print $2; exit}' "$tmp/subjects")
		dir=${d:-$dir}
		echo "$c $dir"
	done < "$tmp/commits" > "$tmp/map"
fi
# Series must not interleave: each directory one run of commits.
cut -d' ' -f2 "$tmp/map" | uniq > "$tmp/order"
[ "$(sort "$tmp/order" | uniq -d)" = "" ] ||
	die "the commits of a series are not together: $(sort "$tmp/order" | uniq -d | paste -sd' ' -)"

mkdir -p "$tmp/new"
prev=base
: > "$tmp/new/series"
while read -r d; do
	last=$(awk -v d="$d" '$2 == d {c=$1} END {print c}' "$tmp/map")
	git_fp -o "$tmp/out/$d" "$prev..$last"
	cover "$PATCHES/$d/0000-cover-letter.patch" "$tmp/out/$d/0000-cover-letter.patch" "$last"
	mkdir -p "$tmp/new/$d"
	cp "$tmp/out/$d"/*.patch "$tmp/new/$d/"
	ls "$tmp/out/$d" | grep -v '^0000-cover-letter' | sed "s|^|$d/|" >> "$tmp/new/series"
	prev=$last
done < "$tmp/order"
# The cover letter of the whole queue.
git_fp -o "$tmp/out/all" base..HEAD
cover "$PATCHES/0000-cover-letter.patch" "$tmp/out/all/0000-cover-letter.patch" HEAD
cp "$tmp/out/all/0000-cover-letter.patch" "$tmp/new/"

rm -rf "$PATCHES"/*.patch "$PATCHES"/[0-9]*-*/
cp -R "$tmp/new/." "$PATCHES/"
echo "export: $n patches in $(wc -l < "$tmp/order") series in $PATCHES ($(paste -sd' ' "$tmp/order"))"
# make tree must see the tree as up to date with the new series.
echo "$(PATCHES=$PATCHES sh "$(dirname "$0")/series-hash.sh") $(git -C "$LINUX" rev-parse HEAD)" \
	> "$LINUX/.git/harness-series"
