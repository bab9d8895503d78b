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
	# The other Debian releases (issue #14), DCG_CHECK_RELEASES=1 (the
	# default): a second lane runs beside the bookworm suite, since
	# each lane keeps about one of the two cores busy (one TCG vCPU,
	# one stap build or host test at a time).  It prepares the three
	# build roots (debootstrap and downloads on a fresh machine,
	# seconds when /var/cache/dyncg is warm), compiles kcompat.h
	# against every header flavour, then runs each release's subset.
	# Its lines print when the bookworm suite is done.
	rels=${DCG_CHECK_RELEASES:-1}
	lane=
	skip=
	if [ "$rels" = 1 ]; then
		rm -rf releases releases-prepare
		mkdir -p releases releases-prepare
		# the check programs before either lane uses them
		make -s -j"$(nproc)" check RUNTESTFLAGS=--version > make-check.log 2>&1 ||
			{ tail -20 make-check.log; echo "build.sh: building the check programs failed"; exit 1; }
		"$top/testsuite/run-releases" --lane "$bld" > releases/lane.log 2>&1 &
		lane=$!
		# the header-flavour compile checks need every release's
		# headers: the lane runs them
		skip=dyncg.unit/kcompat-build.exp
	fi
	# a line per .exp file as it ends; the merged results in dyncg.sum
	DCG_SUITE_SKIP=$skip "$top/testsuite/run-suite" "$bld" || rc=$?
	sums=dyncg.sum
	if [ "$rels" = 1 ]; then
		echo "build.sh: bookworm: $("$top/testsuite/summarize" dyncg.sum)"
		t0=$(date +%s)
		wait "$lane" || true
		echo "build.sh: other releases (waited $(( $(date +%s) - t0 )) s for their lane)"
		sed '$d' releases/lane.log
		sums="$sums $(cat releases/sums 2>/dev/null)"
		[ -s releases/sums ] || {
			echo "ERROR: the release lane wrote no results (see $bld/releases/lane.log)" > releases/lane.sum
			sums="$sums releases/lane.sum"
		}
	fi
	# shellcheck disable=SC2086
	"$top/testsuite/summarize" $sums || rc=1
	exit $rc ;;
*)	echo "usage: $0 demo|check|build" >&2; exit 2 ;;
esac
