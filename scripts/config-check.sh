#!/bin/sh
# Usage: config-check.sh DOTCONFIG FRAGMENT...
# Fail, naming each option, if a fragment asked for a value that the final
# .config does not have (olddefconfig drops options whose dependencies fail).
set -eu
cfg=$1; shift
bad=0
for frag in "$@"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) opt=${line%%=*}; val=${line#*=}
			if [ "$val" = n ]; then
				grep -qx "$opt=.*" "$cfg" && { echo "config: $opt requested =n in $frag but is $(grep "^$opt=" "$cfg")" >&2; bad=1; }
			else
				grep -qxF "$line" "$cfg" || {
					got=$(grep "^$opt=" "$cfg" || echo "not set")
					echo "config: $opt=$val requested in $frag was dropped ($got): check its dependencies" >&2
					bad=1
				}
			fi ;;
		'# CONFIG_'*' is not set') opt=${line#\# }; opt=${opt%% *}
			grep -q "^$opt=" "$cfg" && { echo "config: $opt requested off in $frag but is on" >&2; bad=1; } ;;
		esac
	done < "$frag"
done
exit $bad
