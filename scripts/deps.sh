#!/bin/sh
# Install the Debian packages the harness needs, only those missing.
# Not root and something missing: print the exact apt-get command, exit 1.
set -eu
KVER_PKG=${KVER_PKG:-6.1.192-3}
PKGS="linux-source-6.1 qemu-system-x86 gcc make bc flex bison libelf-dev libssl-dev
cpio ccache sparse python3 python3-ply git xz-utils jq rsync kmod
libdw-dev libtraceevent-dev zlib1g-dev libzstd-dev pkg-config binutils
gnuplot-nox ${DEPS_EXTRA:-}"

missing=
for p in $PKGS; do
	st=$(dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case $st in ii*) ;; *) missing="$missing $p" ;; esac
done
have=$(dpkg-query -W -f '${Version}' linux-source-6.1 2>/dev/null || true)
src=
if [ -n "$have" ] && [ "$have" != "$KVER_PKG" ]; then
	echo "deps: linux-source-6.1 $have is installed; the series is pinned to $KVER_PKG" >&2
	src="linux-source-6.1=$KVER_PKG"
fi
missing=$(echo "$missing" | sed "s/ linux-source-6.1\$/ linux-source-6.1=$KVER_PKG/; s/ linux-source-6.1 / linux-source-6.1=$KVER_PKG /")
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
