# common.tcl - helpers of the dyncg.stap tests (the tapset in the VM).
# Sourced by each .exp of this directory; runtest does not run it itself.
#
#   dcgs_flags          stap options that build a module with the tapset
#                       and the C of this source tree (see tapset.am); they
#                       include a hash of those sources, so the test bed's
#                       module cache rebuilds when they change
#   dcgs_check ARGS     run dcg_stap_check.py ARGS; returns {status output}
#   dcgs_save NAME TEXT write TEXT to NAME in this test's work dir; returns
#                       the path
#   dcgs_cc NAME SRC ?FLAGS?  build a test program from this directory
#                       into the work dir (stable path for uprobes); ""
#                       and a FAIL if it does not build
#   dcgs_quick          1 with DCG_QUICK=1: the quick form of a test (fewer
#                       fixtures, cases or rounds; the same checks on what
#                       runs).  testsuite/run-releases sets it for the
#                       other releases, where every module is built by
#                       that release's stap and gcc in a chroot.

# runtest sources every .exp into one interpreter: start with fresh
# variables (a scalar "ko" of another file would break "ko(name)").
unset -nocomplain ko trace csv want known

# STP_NO_OVERLOAD: stap's overload guard counts handler time in TSC
# cycles, which under TCG on a busy host include the time the vCPU thread
# does not run: with the host at load 8 to 20 it stopped the oracle and
# skip windows before any trap (the kernel tests set it for the same
# reason, kernel.tcl).
proc dcgs_flags {} {
	set inc [dcg_build tapset/include]
	if {![file exists [file join $inc dyncg]]} {
		file mkdir $inc
		exec ln -sfn [dcg_src runtime] [file join $inc dyncg]
	}
	set files [concat [glob [dcg_src tapset]/*.stp] \
		       [glob [dcg_src runtime]/*.h [dcg_src runtime]/*.c] \
		       [glob [dcg_src runtime]/linux/*]]
	set h [lindex [dcg_sh "cat [lsort $files] | sha1sum"] 1]
	return [list -I [dcg_src tapset] -B KCFLAGS=-I$inc -DSTP_NO_OVERLOAD \
		    -DDCG_SRC_SHA=x[string range $h 0 15]]
}

proc dcgs_check {args} {
	return [dcg_sh "python3 [dcg_src testsuite/dyncg.stap/dcg_stap_check.py] $args"]
}

# mkelf.py DIR: crafted ELF files for the build-id reader; returns
# {status {NAME WANT NAME WANT...}}.
proc dcgs_check_mkelf {dir} {
	return [dcg_sh "python3 [dcg_src testsuite/dyncg.stap/mkelf.py] [list $dir]"]
}

proc dcgs_save {name text} {
	set path [file join [dcg_vm_workdir] $name]
	set f [open $path w]
	fconfigure $f -translation binary
	puts -nonewline $f $text
	close $f
	return $path
}

proc dcgs_cc {name src {flags {-O1 -g}}} {
	set out [file join [dcg_vm_workdir] $name]
	set r [dcg_sh "gcc $flags -o $out [dcg_src testsuite/dyncg.stap/$src]"]
	if {[lindex $r 0] != 0} {
		verbose -log [lindex $r 1] 0
		fail "$name: build test program"
		return ""
	}
	return $out
}

# Expected stdout of an untraced run on the host: the guest must print
# the same when traced.
proc dcgs_host_output {bin} {
	return [string trim [lindex [dcg_sh "$bin"] 1]]
}

proc dcgs_quick {} {
	global env
	return [expr {[info exists env(DCG_QUICK)] && $env(DCG_QUICK) eq "1"}]
}
