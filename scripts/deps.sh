#!/bin/sh
# Install the Debian packages the harness needs, only those missing.
# Not root and something missing: print the exact apt-get command, exit 1.
set -eu
# The kernel source package and version come from the series' cover letter.
set -- $(sh "$(dirname "$0")/base.sh")
SRC_PKG=$1 SRC_VER=$2
PKGS="$SRC_PKG qemu-system-x86 gcc make bc flex bison libelf-dev libssl-dev
cpio ccache sparse python3 python3-ply git xz-utils jq rsync kmod
libdw-dev libtraceevent-dev zlib1g-dev libzstd-dev pkg-config binutils
gnuplot-nox linux-perf ${DEPS_EXTRA:-}"

missing=
for p in $PKGS; do
	st=$(dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case $st in ii*) ;; *) missing="$missing $p" ;; esac
done
have=$(dpkg-query -W -f '${Version}' "$SRC_PKG" 2>/dev/null || true)
src=
if [ -n "$have" ] && [ "$have" != "$SRC_VER" ]; then
	echo "deps: $SRC_PKG $have is installed; the series is pinned to $SRC_VER" >&2
	src="$SRC_PKG=$SRC_VER"
fi
missing=$(echo "$missing " | sed "s/ $SRC_PKG / $SRC_PKG=$SRC_VER /; s/ \$//")
[ -n "$missing$src" ] || exit 0

cmd="apt-get install -y --no-install-recommends$missing${src:+ $src}"
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages:$missing${src:+ $src}" >&2
	echo "deps: not root; run as root:  $cmd" >&2
	exit 1
fi
echo "deps: installing$missing${src:+ $src}"
export DEBIAN_FRONTEND=noninteractive
if ! $cmd >build/apt.log 2>&1; then
	apt-get update >>build/apt.log 2>&1 || true
	$cmd >>build/apt.log 2>&1 || { tail -20 build/apt.log >&2; echo "deps: '$cmd' failed (log: build/apt.log)" >&2; exit 1; }
fi
