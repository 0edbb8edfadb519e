#!/bin/sh
# PID 1 of the test guest (see vm.sh): mount what tests need, run the
# command from the harness share, store its exit status there, reboot
# (QEMU runs with -no-reboot, so that ends it).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root HARNESS_OUT=/mnt TERM=dumb LANG=C.UTF-8
log() { echo "<6>harness-init: $*" > /dev/kmsg; }
mount -t proc proc /proc
mount -t sysfs sysfs /sys
grep -q ' /dev ' /proc/mounts || mount -t devtmpfs devtmpfs /dev
for d in /tmp /run /var/tmp /root; do mount -t tmpfs -o mode=1777 tmpfs "$d"; done
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null || true
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null || true
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 harness /mnt
# A repository under one of the tmpfs above (a clone in /root or /tmp): put
# it back at its own path, read-only, from its own share.
repo=$(cat /mnt/repo)
if [ ! -d "$repo/scripts" ]; then
	mkdir -p "$repo"
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=loose,ro repo "$repo" ||
		log "cannot mount the repository at $repo"
fi
stty -F /dev/ttyS1 raw -echo 2>/dev/null || true
log "running $(head -c 200 /mnt/cmd)"
cd "$(cat /mnt/cwd)" || { log "no directory $(cat /mnt/cwd) in the guest"; cd /; }
( sh /mnt/cmd < /dev/null; echo $? > /mnt/rc ) > /dev/ttyS1 2>&1
log "exit status $(cat /mnt/rc)"
sync
umount /mnt
# Without ACPI there is no power-off: reboot, which QEMU (-no-reboot) ends.
echo b > /proc/sysrq-trigger
sleep 10
