#!/bin/sh
# Make build/linux: the pristine Debian source committed and tagged "base",
# then every patch of patches/series applied with "git am", one commit each.
# Idempotent: does nothing when the series and the tree already match.
#
# Environment: LINUX (tree, default build/linux), PATCHES (default patches),
# SRC_TARBALL (default: what scripts/src-tarball.sh names).  The Debian source package and its version come from the
# cover letter's "Base:" line (scripts/base.sh).
set -eu
LINUX=${LINUX:-build/linux}
PATCHES=${PATCHES:-patches}
STAMP=$LINUX/.git/harness-series

die() { echo "tree: $*" >&2; exit 1; }


git_() { git -C "$LINUX" -c user.name="Persistent Events Project" \
	-c user.email=devel@perf-persistent.invalid "$@"; }

# Refuse to throw away work that is not exported (FORCE=1 discards it).
refuse_unexported() {
	[ "${FORCE:-0}" = 1 ] && return 0
	if [ -f "$STAMP" ]; then
		read -r got_hash got_head < "$STAMP" || true
		[ "$got_head" = "$(git -C "$LINUX" rev-parse HEAD)" ] ||
			die "$LINUX has commits that are not in $PATCHES (run 'make export'), or FORCE=1 to discard them"
	fi
	[ -z "$(git -C "$LINUX" status --porcelain --untracked-files=no)" ] ||
		die "$LINUX has uncommitted changes: commit and 'make export' them, or FORCE=1 to discard them"
}

# A tree unpacked from another base (6.1 and 6.12 series): unpack again.
if subj=$(git -C "$LINUX" log -1 --format=%s base 2>/dev/null) &&
	case $subj in "base: Debian "*) true ;; *) false ;; esac &&
	want_base=$(PATCHES=$PATCHES sh "$(dirname "$0")/base.sh") &&
	[ "$subj" != "base: Debian $want_base" ]; then
	refuse_unexported
	echo "tree: $LINUX is on '${subj#base: Debian }', the series wants '$want_base': unpacking again"
	git -C "$LINUX" tag -d base >/dev/null
	rm -f "$STAMP"
fi

if ! git -C "$LINUX" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	base=$(PATCHES=$PATCHES sh "$(dirname "$0")/base.sh") || die "cannot tell the base of $PATCHES"
	set -- $base
	SRC_PKG=$1 SRC_VER=$2
	SRC_TARBALL=${SRC_TARBALL:-$(PATCHES=$PATCHES sh "$(dirname "$0")/src-tarball.sh")}
	[ -r "$SRC_TARBALL" ] || die "$SRC_TARBALL missing: run 'make deps' (it fetches $SRC_PKG $SRC_VER)"
	echo "tree: unpacking $SRC_TARBALL ($SRC_PKG $SRC_VER) into $LINUX"
	rm -rf "$LINUX" "$LINUX.tmp"
	mkdir -p "$LINUX.tmp"
	tar -xJf "$SRC_TARBALL" -C "$LINUX.tmp" --strip-components=1
	git -C "$LINUX.tmp" init -q
	git -C "$LINUX.tmp" add -A -f
	# Fixed identity and dates: the base commit id is the same on every machine.
	GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
	git -C "$LINUX.tmp" -c user.name="Persistent Events Project" \
		-c user.email=devel@perf-persistent.invalid \
		commit -q -m "base: Debian $SRC_PKG $SRC_VER" \
		-m "Pristine /usr/src/$SRC_PKG.tar.xz of the Debian package $SRC_PKG, version $SRC_VER."
	git -C "$LINUX.tmp" tag base
	git -C "$LINUX.tmp" config user.name "Persistent Events Project"
	git -C "$LINUX.tmp" config user.email devel@perf-persistent.invalid
	mv "$LINUX.tmp" "$LINUX"
fi

want=$(PATCHES=$PATCHES sh "$(dirname "$0")/series-hash.sh")
if [ -f "$STAMP" ]; then
	read -r got_hash got_head < "$STAMP" || true
	if [ "$got_hash" = "$want" ] && [ "$got_head" = "$(git -C "$LINUX" rev-parse HEAD)" ]; then
		echo "tree: $LINUX is up to date with $PATCHES/series"
		exit 0
	fi
fi
refuse_unexported

git_ am --abort >/dev/null 2>&1 || true
git_ reset -q --hard base
n=0
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	[ -f "$PATCHES/$p" ] || die "$PATCHES/series names $p, which does not exist"
	if ! out=$(git_ am --keep-cr "$(realpath "$PATCHES/$p")" 2>&1); then
		git_ am --abort >/dev/null 2>&1 || true
		echo "$out" >&2
		die "patch $p does not apply (git am output above)"
	fi
	n=$((n + 1))
done < "$PATCHES/series"
echo "$want $(git -C "$LINUX" rev-parse HEAD)" > "$STAMP"
echo "tree: $LINUX = base + $n patches"
