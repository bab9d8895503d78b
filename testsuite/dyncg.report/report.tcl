# report.tcl - helpers for the dcg-report tests (sourced by each .exp).
#
# Traces are made from text descriptions in data/ by mktrace; expected
# outputs in data/ were worked out by hand from those descriptions.

set rpt_mktrace [dcg_build testsuite/unit/mktrace]
set rpt_report [dcg_build dcg-report]
set rpt_data [dcg_src testsuite/dyncg.report/data]
set rpt_tmp [dcg_build testsuite/report-tmp]
file mkdir $rpt_tmp

# Quote a word for sh.
proc rpt_q {s} {
	return "'[string map {' '\\''} $s]'"
}

# A file name made from a test name.
proc rpt_fname {name} {
	regsub -all {[^A-Za-z0-9_.-]+} $name _ f
	return $f
}

# Are the programs there?  Marks NAME unresolved if not.
proc rpt_ready {name} {
	global rpt_mktrace rpt_report
	foreach p [list $rpt_mktrace $rpt_report] {
		if {![file executable $p]} {
			unresolved "$name: $p not built"
			return 0
		}
	}
	return 1
}

# Make data/DESC.desc into a trace; returns its path.
proc rpt_trace {desc args} {
	global rpt_mktrace rpt_data rpt_tmp
	set out "$rpt_tmp/$desc.dcg"
	set r [dcg_sh "[rpt_q $rpt_mktrace] $args -o [rpt_q $out] [rpt_q $rpt_data/$desc.desc]"]
	if {[lindex $r 0] != 0} {
		send_log "mktrace $desc: [lindex $r 1]\n"
		return ""
	}
	return $out
}

# NAME passes if view ARGS prints the same for traces DESC and OTHER.
proc rpt_same {name desc other args} {
	global rpt_report rpt_tmp
	if {![rpt_ready $name]} { return }
	set outs {}
	foreach d [list $desc $other] {
		set trace [rpt_trace $d]
		if {$trace eq ""} {
			fail "$name: cannot make the trace $d"
			return
		}
		set out "$rpt_tmp/[rpt_fname $name].$d.out"
		set cmd [rpt_q $rpt_report]
		foreach a $args { append cmd " [rpt_q $a]" }
		set r [dcg_sh "($cmd [rpt_q $trace] >[rpt_q $out] 2>[rpt_q $out.err])"]
		if {[lindex $r 0] != 0} {
			fail "$name: exit status [lindex $r 0] on $d"
			return
		}
		lappend outs $out
	}
	set d [dcg_sh "diff -u [rpt_q [lindex $outs 1]] [rpt_q [lindex $outs 0]]"]
	if {[lindex $d 0] == 0} {
		pass $name
	} else {
		fail $name
		send_log "\n[lindex $d 1]\n"
	}
}

# Run dcg-report ARGS on the trace of DESC; pass if stdout equals
# data/EXPECTED byte for byte and the exit status is 0.
proc rpt_golden {name desc expected args} {
	global rpt_report rpt_data rpt_tmp
	if {![rpt_ready $name]} { return }
	set trace [rpt_trace $desc]
	if {$trace eq ""} {
		fail "$name: cannot make the trace"
		return
	}
	set out "$rpt_tmp/[rpt_fname $name].out"
	set cmd [rpt_q $rpt_report]
	foreach a $args { append cmd " [rpt_q $a]" }
	set r [dcg_sh "($cmd [rpt_q $trace] >[rpt_q $out] 2>[rpt_q $out.err])"]
	if {[lindex $r 0] != 0} {
		fail "$name: exit status [lindex $r 0]"
		return
	}
	set d [dcg_sh "diff -u [rpt_q $rpt_data/$expected] [rpt_q $out]"]
	if {[lindex $d 0] == 0} {
		pass $name
	} else {
		fail $name
		send_log "\n[lindex $d 1]\n"
	}
}
