#!/bin/sh
# build.sh - one entry point for a fresh Debian 12 machine.
#
#   ./build.sh demo    install what is needed, build, run the main demo
#   ./build.sh check   install what is needed, build, run the whole test
#                      suite; the last line is "N passed, N failed, N skipped"
#   ./build.sh build   install and build only
#
# The build lives in ./build (out of tree).  Set DCG_BUILD to move it.
set -eu
top=$(cd "$(dirname "$0")" && pwd)
bld=${DCG_BUILD:-$top/build}
what=${1:-build}

"$top/scripts/setup-deps"

if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ]; then
	echo "build.sh: autoreconf"
	(cd "$top" && autoreconf -fi >/dev/null 2>&1) || (cd "$top" && autoreconf -fi)
fi
mkdir -p "$bld"
cd "$bld"
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
	echo "build.sh: configure"
	"$top/configure" -q
fi
echo "build.sh: make"
make -s -j"$(nproc)"

case $what in
build)	;;
demo)	exec "$top/examples/demo" "$bld" ;;
check)
	echo "build.sh: the test suite, one line per test file"
	rc=0
	# The other Debian releases (issue #14), with DCG_CHECK_RELEASES=1:
	# their build roots are prepared in the background now (debootstrap
	# and downloads: network and disk, no guest boot), while the
	# bookworm suite runs; their subsets run after it.  Off by default,
	# so not in CI yet: trixie and sid fail 4 tests each, and a cold run
	# took 73 min at load 5-9 (testsuite/vm/README.md).
	rels=${DCG_CHECK_RELEASES:-0}
	prep=
	skip=
	if [ "$rels" = 1 ]; then
		rm -rf releases releases-prepare
		mkdir -p releases-prepare
		"$top/testsuite/run-releases" --prepare "$bld" > releases-prepare/all.log 2>&1 &
		prep=$!
		# the header-flavour compile checks need every release's
		# headers: they run after the preparation, below
		skip=dyncg.unit/kcompat-build.exp
	fi
	# a line per .exp file as it ends; the merged results in dyncg.sum
	DCG_SUITE_SKIP=$skip "$top/testsuite/run-suite" "$bld" || rc=$?
	sums=dyncg.sum
	if [ "$rels" = 1 ]; then
		echo "build.sh: bookworm: $("$top/testsuite/summarize" dyncg.sum)"
		t0=$(date +%s)
		wait "$prep" || true
		cat releases-prepare/all.log
		echo "build.sh: waited $(( $(date +%s) - t0 )) s for the release roots"
		# every amd64 header flavour (generic, cloud, rt) of every
		# release: none may be missing now
		mkdir -p releases/kcompat
		DCG_KCOMPAT_ALL=1 runtest --tool dyncg --srcdir "$top/testsuite" \
			--outdir releases/kcompat dyncg.unit/kcompat-build.exp \
			> releases/kcompat/runtest.out 2>&1 || true
		[ -s releases/kcompat/dyncg.sum ] ||
			echo "ERROR: kcompat-build.exp wrote no results" > releases/kcompat/dyncg.sum
		echo "dyncg.unit/kcompat-build.exp: $("$top/testsuite/summarize" releases/kcompat/dyncg.sum)"
		grep -E '^(FAIL|XPASS|UNRESOLVED|ERROR|UNSUPPORTED):' releases/kcompat/dyncg.sum | sed 's/^/    /'
		echo "build.sh: other releases"
		"$top/testsuite/run-releases" "$bld" | sed -u '$d' || true
		sums="$sums releases/kcompat/dyncg.sum"
		for r in releases/*/dyncg.sum; do
			[ "$r" = releases/kcompat/dyncg.sum ] || [ ! -f "$r" ] || sums="$sums $r"
		done
	fi
	# shellcheck disable=SC2086
	"$top/testsuite/summarize" $sums || rc=1
	exit $rc ;;
*)	echo "usage: $0 demo|check|build" >&2; exit 2 ;;
esac
