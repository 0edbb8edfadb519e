#!/bin/sh
# Usage: step.sh NAME COMMAND...  Run a long step with one progress line and
# its elapsed time.
set -u
name=$1; shift
t0=$(date +%s)
echo "[$(date +%H:%M:%S)] $name ..."
"$@"
rc=$?
t=$(( $(date +%s) - t0 ))
if [ $rc = 0 ]; then echo "[$(date +%H:%M:%S)] $name done (${t}s)"; else echo "[$(date +%H:%M:%S)] $name FAILED (${t}s)" >&2; fi
exit $rc
