#!/bin/sh
# Install the Debian packages the harness needs, only those missing.
# Not root and something missing: print the exact apt-get command, exit 1.
# The kernel source is never installed (a newer linux-source package the
# user has stays as it is, apt would refuse a downgrade anyway): the pinned
# version's .deb is fetched with apt-get download and unpacked into
# build/src/ (scripts/src-tarball.sh prints where the tarball lands).
set -eu
# The kernel source package and version come from the series' cover letter.
set -- $(sh "$(dirname "$0")/base.sh")
SRC_PKG=$1 SRC_VER=$2
PKGS="qemu-system-x86 gcc make bc flex bison libelf-dev libssl-dev
cpio ccache sparse python3 python3-ply python3-git git xz-utils jq rsync kmod
libdw-dev libtraceevent-dev zlib1g-dev libzstd-dev pkg-config binutils
gnuplot-nox linux-perf ${DEPS_EXTRA:-}"

missing=
for p in $PKGS; do
	st=$(dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case $st in ii*) ;; *) missing="$missing $p" ;; esac
done
if [ -n "$missing" ]; then
	cmd="apt-get install -y --no-install-recommends$missing"
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing Debian packages:$missing" >&2
		echo "deps: not root; run as root:  $cmd" >&2
		exit 1
	fi
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	mkdir -p build
	if ! $cmd >build/apt.log 2>&1; then
		apt-get update >>build/apt.log 2>&1 || true
		$cmd >>build/apt.log 2>&1 || { tail -20 build/apt.log >&2; echo "deps: '$cmd' failed (log: build/apt.log)" >&2; exit 1; }
	fi
fi

# The pinned kernel source, from its own .deb.
tarball=$(sh "$(dirname "$0")/src-tarball.sh")
[ -r "$tarball" ] && exit 0
dir=${tarball%/usr/src/*}
rm -rf "$dir" "$dir.dl"
mkdir -p "$dir.dl"
echo "deps: fetching $SRC_PKG $SRC_VER (apt-get download, unpacked into $dir)"
if ! (cd "$dir.dl" && apt-get download "$SRC_PKG=$SRC_VER") >"$dir.log" 2>&1; then
	have=$(apt-cache madison "$SRC_PKG" 2>/dev/null | awk '{print $3}')
	if ! echo "$have" | grep -qxF -- "$SRC_VER"; then
		echo "deps: $SRC_PKG $SRC_VER, the series' base, is no longer in the archive (apt has: $(echo ${have:-none})); move the series to a newer base (README, 'Moving the base')" >&2
	else
		tail -5 "$dir.log" >&2
		echo "deps: apt-get download $SRC_PKG=$SRC_VER failed (log: $dir.log)" >&2
	fi
	rm -rf "$dir.dl" "$dir.log"
	exit 1
fi
dpkg-deb -x "$dir.dl"/*.deb "$dir" || { echo "deps: dpkg-deb -x of $dir.dl/*.deb failed" >&2; exit 1; }
rm -rf "$dir.dl"
[ -r "$tarball" ] || { echo "deps: $SRC_PKG $SRC_VER holds no $tarball" >&2; exit 1; }
