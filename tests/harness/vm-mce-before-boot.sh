#!/bin/sh
# vm.sh --mce-before-boot puts an error into a vCPU's MCA bank before the
# guest runs (the kernel logs it at boot with mce=bootlog); --cpu changes the
# CPU model (no MCA with max,-mca,-mce); bad arguments are a usage error.
set -eu
rc=0
sh scripts/vm.sh --mce-before-boot '1 2 0x9000 0 0' --dry-run -- true >/dev/null 2>&1 || rc=$?
[ $rc = 125 ]
rc=0
sh scripts/vm.sh --mce-before-boot '1 2 0x9000000000000000 0 0 zz' --dry-run -- true >/dev/null 2>&1 || rc=$?
[ $rc = 125 ]
out=$(sh scripts/vm.sh --timeout 120 --append mce=bootlog \
	--mce-before-boot '1 2 0x9000000000000000 0 0 0' -- 'dmesg | grep "Hardware Error"')
echo "$out"
echo "$out" | grep -q 'CPU 1: Machine Check: 0 Bank 2: 9000000000000000'
out=$(sh scripts/vm.sh --timeout 120 --cpu max,-mca,-mce -- 'grep -c "^flags.* mca " /proc/cpuinfo || true')
echo "$out"
[ "$out" = 0 ]
