# Shared by the guest scripts of make compare-ftrace (scripts/compare-ftrace.sh),
# sourced with READER set:
#   ftrace:DIR  mce:mce_record in the ftrace instance DIR (its trace file)
#   perf:EVENT  the persistent event EVENT (perf record -a, perf script)
# Prints result lines "compare: KEY VALUE..." for the host.
INJ=/sys/kernel/debug/mce-inject
PERF=${PERF:-$(pwd)/build/perf/perf}
W=/tmp/compare
mkdir -p $W
KIND=${READER%%:*}
SRC=${READER#*:}
say() { echo "compare: $*"; }
# inject ADDR [BANK [STATUS]]: one corrected error (sw: logged on the CPU
# this shell runs on, where the MCE work item then writes the record)
inject() {
	echo sw > $INJ/flags && echo "${3:-0x9c00000000000042}" > $INJ/status &&
		echo "$1" > $INJ/addr && echo 0 > $INJ/misc && echo 0 > $INJ/cpu &&
		echo "${2:-1}" > $INJ/bank || say "error injection of addr $1 failed"
}
# inject_range FIRST N [PAUSE]: N errors, addrs FIRST, FIRST+1, ...
inject_range() {
	i=0
	while [ $i -lt "$2" ]; do
		inject "$(printf '0x%x' $(($1 + i)))"
		[ -z "${3:-}" ] || sleep "$3"
		i=$((i + 1))
	done
}
# norm RAW: the mce_record records of a reader's text output, one line
# each, "STATUS ADDR" in hex without 0x or leading zeros, in its order;
# both formats: TP_printk's ("MC1: 9c00..., ADDR: 00...") and the fields
# ftrace prints for a boot-mapped buffer of another kernel layout
# ("status=0x9c00... (...) addr=0x... (...)")
norm() {
	grep 'mce_record' "$1" | sed -n \
		-e 's/.* MC[0-9]*: \([0-9a-f]*\),.* ADDR: \([0-9a-f]*\),.*/\1 \2/p' \
		-e 's/.* status=0x\([0-9a-f]*\) .* addr=0x\([0-9a-f]*\) .*/\1 \2/p' |
		awk '{ sub(/^0+/, "", $1); sub(/^0+/, "", $2); print ($1 == "" ? 0 : $1), ($2 == "" ? 0 : $2) }'
}
# snapshot NAME: what a reader that starts now gets, without consuming it
# (ftrace: the trace file; perf: perf record of the event); the raw text in
# $W/NAME.raw, norm's lines in $W/NAME
snapshot() {
	if [ "$KIND" = ftrace ]; then
		cat "$SRC/trace" > "$W/$1.raw" 2>&1
	else
		"$PERF" record -a -e "persistent/$SRC/" -o "$W/$1.data" -- sleep 0.5 > "$W/$1.rec" 2>&1 ||
			{ cat "$W/$1.rec"; say "perf record of $SRC failed"; }
		"$PERF" script --show-lost-events -i "$W/$1.data" > "$W/$1.raw" 2>&1 ||
			say "perf script of $SRC failed"
	fi
	norm "$W/$1.raw" > "$W/$1"
}
# count FILE FIRST N: records in norm's FILE with an addr in [FIRST, FIRST+N)
count() {
	awk -v lo="$(($2))" -v n="$3" '
		function hex(s,   i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
		{ a = hex($2); if (a >= lo && a < lo + n) c++ } END { print c + 0 }' "$1"
}
# ranges FILE FIRST N: which of the N (numbered 1..N) are in FILE, as
# ranges "1-2,313-400" ("none" if none)
ranges() {
	awk -v lo="$(($2))" -v n="$3" '
		function hex(s,   i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
		{ a = hex($2) - lo + 1; if (a >= 1 && a <= n) seen[a] = 1 }
		END {
			out = ""
			for (i = 1; i <= n; i++) {
				if (!(i in seen)) continue
				j = i
				while ((j + 1) in seen) j++
				out = out (out == "" ? "" : ",") (i == j ? i : i "-" j)
				i = j
			}
			print out == "" ? "none" : out
		}' "$1"
}
