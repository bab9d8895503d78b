# SPDX-License-Identifier: GPL-2.0
# tracee.sh - POSIX sh functions for the scripts that play with a traced
# program from outside (dyncg.user/faults.exp, debugreg.exp), sourced
# with ". FILE".
#
#   membytes PID HEXADDR   16 bytes at HEXADDR in PID, as 32 hex digits;
#                          "unreadable (WHY)" when they cannot be read,
#                          WHY being dd's own words
#   waitfor FILE REGEX     until a line of FILE matches, 60 s at most: it
#                          returns at the match (under CI's load a program
#                          took over 10 s to print its first line)
#   tracer_of PID          TracerPid of PID
#
# membytes reads exactly 16 bytes with one read(2) from /proc/PID/mem,
# with no interpreter to start: a read that went wrong in CI (all three
# reads of one round of 10, the program alive and running) said only
# "unreadable", and a reason is what the next one must leave behind.

membytes() {
	case "$2" in
	0x*[!0-9a-fA-F]* | 0x) echo "unreadable (address '$2')"; return ;;
	0x*) ;;
	*) echo "unreadable (address '$2')"; return ;;
	esac
	_mb_err=$(mktemp)
	_mb_hex=$(dd if="/proc/$1/mem" bs=16 count=1 iflag=skip_bytes \
		skip=$(($2)) 2> "$_mb_err" | od -An -tx1 -v | tr -d ' \n')
	if [ ${#_mb_hex} -eq 32 ]; then
		echo "$_mb_hex"
	else
		echo "unreadable ($(grep -v records "$_mb_err" | head -n 1))"
	fi
	rm -f "$_mb_err"
}

waitfor() {
	_wf_n=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ $_wf_n -lt 1200 ]; do
		sleep 0.05
		_wf_n=$((_wf_n + 1))
	done
}

tracer_of() {
	sed -n 's/^TracerPid:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null
}
