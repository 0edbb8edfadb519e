#!/bin/sh
# make deps as a normal user with a package missing: one message with the
# exact apt-get command, non-zero exit.
set -eu
rc=0
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	env DEPS_EXTRA=harness-selftest-missing-package sh scripts/deps.sh 2>&1) || rc=$?
echo "$out"
[ $rc != 0 ]
echo "$out" | grep -q 'not root; run as root:  apt-get install -y --no-install-recommends.* harness-selftest-missing-package'
# the kernel source is fetched, never installed: no apt-get install of it
# (that would downgrade a newer linux-source the user has)
! echo "$out" | grep -q 'apt-get install.*linux-source'
