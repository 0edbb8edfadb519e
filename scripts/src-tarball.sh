#!/bin/sh
# Print the path of the pinned kernel source tarball that scripts/deps.sh
# unpacks from the pinned package's .deb (build/src/<package>_<version>/).
set -eu
set -- $(sh "$(dirname "$0")/base.sh")
echo "build/src/$1_$2/usr/src/$1.tar.xz"
