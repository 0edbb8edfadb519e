#!/bin/sh
# results.sh and tap2results.sh: known failures are not passes, a known
# failure that passes fails, a skip keeps its test name (6.1 and 6.12 TAP).
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cat > "$d/t.tap" <<'T'
TAP version 13
1..3
#  RUN           f.a ...
#            OK  f.a
ok 1 f.a
#  RUN           f.b ...
#      SKIP      no hardware
#            OK  f.b
ok 2 # SKIP no hardware
#  RUN           f.c ...
#          FAIL  f.c
not ok 3 f.c
# exit=1
T
sh scripts/tap2results.sh x/ "$d/t.tap" > "$d/r"
cat "$d/r"
grep -qx 'PASS x/f.a' "$d/r"
grep -qx 'SKIP x/f.b no hardware' "$d/r"
grep -qx 'FAIL x/f.c' "$d/r"
# 6.12 TAP: the skip line carries the test name; XFAIL is not a pass.
printf '%s\n' 'ok 1 g.a' 'ok 2 g.b # SKIP no AUX PMU' 'ok 3 g.c # XFAIL known' 'not ok 4 g.d # exit=1' > "$d/u.tap"
sh scripts/tap2results.sh y/ "$d/u.tap" > "$d/u"
cat "$d/u"
grep -qx 'PASS y/g.a' "$d/u"
grep -qx 'SKIP y/g.b SKIP no AUX PMU' "$d/u"
grep -qx 'SKIP y/g.c XFAIL known' "$d/u"
grep -qx 'FAIL y/g.d' "$d/u"
echo 'x/f.c needs a PMU' > "$d/known"
sh scripts/results.sh "$d/r" "$d/known" > "$d/s"
cat "$d/s"
tail -n 1 "$d/s" | grep -qx '1 passed, 0 failed'
grep -q 'KNOWN-FAIL x/f.c: needs a PMU' "$d/s"
echo 'x/f.a wrongly listed' > "$d/known"
! sh scripts/results.sh "$d/r" "$d/known" > "$d/s"
tail -n 1 "$d/s" | grep -qx '0 passed, 2 failed'
printf 'x\n' > "$d/empty.tap"
sh scripts/tap2results.sh y/ "$d/empty.tap" | grep -q '^FAIL y/(no TAP results'
