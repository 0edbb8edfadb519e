# Sourced (". scripts/kbuild-env.sh", from the repository root) by every
# script that runs kbuild, so that all of them build a tree the same way: with
# another HOSTCC, objtool and so every object is rebuilt at the next build,
# and with another build user or time, version.o and the link.
export KBUILD_BUILD_TIMESTAMP='2000-01-01' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
export CCACHE_DIR=${CCACHE_DIR:-$(pwd)/build/ccache} CCACHE_BASEDIR=$(pwd) CCACHE_COMPILERCHECK=content
# Depend mode: a miss costs one compile, not a preprocessor run and a compile
# (a cold kernel/ mm/ fs/ build: 106 s, against 127 s in the default mode and
# 91 s without ccache).
export CCACHE_DEPEND=1

# kmake SRC OUT MAKE-ARGS...
kmake() {
	_src=$1 _out=$2
	shift 2
	make -C "$_src" O="$_out" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# The kernel directories whose C files the series (build/linux) touches.
touched_dirs() {
	git -C build/linux diff --name-only base..HEAD -- '*.c' '*.h' |
		grep -v -e '^tools/' -e '^Documentation/' -e '^samples/' -e '^include/' |
		xargs -r -n1 dirname | sort -u
}
