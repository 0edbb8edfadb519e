#!/bin/sh
# Usage: config-check.sh DOTCONFIG FRAGMENT...
# Fail, naming each option, if a fragment asked for a value that the final
# .config does not have (olddefconfig drops options whose dependencies fail).
# As in merge_config.sh, a later fragment overrides an earlier one.
set -eu
cfg=$1; shift
awk -v cfg="$cfg" '
	FILENAME != cfg && /^CONFIG_[A-Za-z0-9_]+=/ {
		opt = $0; sub(/=.*/, "", opt); val = substr($0, length(opt) + 2)
		if (val == "n") val = "off"
		want[opt] = val; from[opt] = FILENAME; next
	}
	FILENAME != cfg && /^# CONFIG_[A-Za-z0-9_]+ is not set$/ {
		opt = $2; want[opt] = "off"; from[opt] = FILENAME; next
	}
	FILENAME == cfg && /^CONFIG_[A-Za-z0-9_]+=/ {
		opt = $0; sub(/=.*/, "", opt); have[opt] = substr($0, length(opt) + 2)
	}
	END {
		bad = 0
		for (opt in want) {
			if (want[opt] == "off") {
				if (opt in have) {
					printf "config: %s requested off in %s but is %s=%s\n", opt, from[opt], opt, have[opt] > "/dev/stderr"
					bad = 1
				}
			} else if (!(opt in have) || have[opt] != want[opt]) {
				got = (opt in have) ? opt "=" have[opt] : "not set"
				printf "config: %s=%s requested in %s was dropped (%s): check its dependencies\n", opt, want[opt], from[opt], got > "/dev/stderr"
				bad = 1
			}
		}
		exit bad
	}' "$@" "$cfg"
