#!/bin/sh
# Guest side of the boots of the mce-reboot case "loop" (scripts/check-reboot.sh)
# that are not the ones mce-before-reboot.sh and mce-after-reboot.sh run:
#   empty ID1          boot 2, after boot 1 (ID1) panicked: mce_record_previous
#                      is boot 1's; this boot records nothing and reboots
#                      (reboot -f): reaching the end is a failure
#   release ID1 ID3    boot 4, after boot 3 (ID3) panicked too: exactly two
#                      kept boots, mce_record_previous (ID3) and
#                      mce_record_previous_2 (ID1), whose info/<name>.released read
#                      0; writing 0 to released fails (EINVAL); root
#                      releases boot 1 (echo 1 > released), which then reads
#                      1, and boot 3 stays 0; then reboot -f
#   gone ID1 ID3       boot 5: boot 3 is still mce_record_previous, no event
#                      has boot 1's boot_id, there is no mce_record_previous_2
# Prints "mce-kept-boots: ok" on success (for gone; empty and release print
# "mce-kept-boots: rebooting" after their checks), else
# "mce-kept-boots: FAIL: ..." lines.
set -u
P=/sys/bus/event_source/devices/persistent
failed=0
fail() { echo "mce-kept-boots: FAIL: $*"; failed=1; }
# id EVENT: the boot_id of a kept boot's event, or "none"
id() { cat "$P/info/$1.boot_id" 2>/dev/null || echo none; }
mode=${1:-} id1=${2:-} id3=${3:-}
echo "mce-kept-boots: $mode: this boot_id $(cat /proc/sys/kernel/random/boot_id)"
echo "mce-kept-boots: events: $(ls $P/events 2>&1 | tr '\n' ' ')"
for e in $(ls $P/info 2>/dev/null); do
	[ -r "$P/info/$e.boot_id" ] &&
		echo "mce-kept-boots: $e: boot_id $(id "$e"), released $(cat "$P/info/$e.released" 2>&1)"
done
dmesg | grep -E 'previous boot|earlier boot|is full|holds [0-9]+ boots' | sed 's/^/  dmesg: /'
case $mode in
empty)
	[ "$(id mce_record_previous)" = "$id1" ] ||
		fail "mce_record_previous is boot $(id mce_record_previous), expected boot 1 ($id1)"
	sync
	echo "mce-kept-boots: rebooting"
	reboot -f
	fail "reboot -f returned"
	exit 1
	;;
release)
	[ "$(id mce_record_previous)" = "$id3" ] ||
		fail "mce_record_previous is boot $(id mce_record_previous), expected boot 3 ($id3)"
	[ "$(id mce_record_previous_2)" = "$id1" ] ||
		fail "mce_record_previous_2 is boot $(id mce_record_previous_2), expected boot 1 ($id1)"
	[ ! -e $P/events/mce_record_previous_3 ] ||
		fail "a third kept boot, mce_record_previous_3 ($(id mce_record_previous_3)): boot 2 recorded nothing"
	R1=$P/info/mce_record_previous_2.released R3=$P/info/mce_record_previous.released
	[ "$(cat $R1 2>&1)" = 0 ] && [ "$(cat $R3 2>&1)" = 0 ] ||
		fail "released before the release: boot 1 $(cat $R1 2>&1), boot 3 $(cat $R3 2>&1), expected 0 0"
	# coreutils echo: dash's built-in one says "I/O error" for any error
	if err=$(env echo 0 2>&1 > $R1); then
		fail "writing 0 to $R1 succeeded, expected EINVAL"
	else
		case $err in *"nvalid argument"*) ;; *) fail "writing 0 to $R1: '$err', expected EINVAL" ;; esac
	fi
	echo 1 > $R1 || fail "echo 1 > $R1 failed"
	[ "$(cat $R1 2>&1)" = 1 ] || fail "$R1 reads $(cat $R1 2>&1) after the release, expected 1"
	[ "$(cat $R3 2>&1)" = 0 ] || fail "$R3 reads $(cat $R3 2>&1) after releasing boot 1, expected 0"
	# released, its records stay for this boot
	[ -e $P/events/mce_record_previous_2 ] || fail "mce_record_previous_2 gone in the boot that released it"
	sync
	echo "mce-kept-boots: rebooting"
	reboot -f
	fail "reboot -f returned"
	exit 1
	;;
gone)
	[ "$(id mce_record_previous)" = "$id3" ] ||
		fail "mce_record_previous is boot $(id mce_record_previous), expected boot 3 ($id3)"
	[ ! -e $P/events/mce_record_previous_2 ] ||
		fail "mce_record_previous_2 (boot $(id mce_record_previous_2)) is still offered after boot 1 was released"
	for e in $(ls $P/info); do
		[ "$(id "$e")" != "$id1" ] || fail "$e has boot 1's boot_id $id1 after its release"
	done
	[ $failed = 0 ] && echo "mce-kept-boots: ok"
	;;
*) fail "usage: mce-kept-boots.sh empty|release|gone ID1 [ID3]" ;;
esac
