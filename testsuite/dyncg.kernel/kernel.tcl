# kernel.tcl - shared by testsuite/dyncg.kernel/*.exp (sourced, after
# load_lib vm.exp).  Kernel-mode windows are tested in the QEMU guest:
# stap modules built here with the tapset of this tree, test programs
# built static at a stable path, results checked by ktrace.py.

# stap options that compile the tapset and runtime of this tree.
# STP_NO_OVERLOAD: stap's overload guard measures handler time in TSC
# cycles, which under TCG on a busy host includes the time the vCPU
# thread is not running; it stopped a stress run once.  The
# test bed's module cache keys on the stap arguments, not on files that
# the tapset includes, so a digest of the runtime and tapset sources
# rides along as a -D: a changed runtime means a rebuilt module.
proc kern_stap_args {{extra {}}} {
	global kern_rt_digest
	if {![info exists kern_rt_digest]} {
		set files [concat [glob -nocomplain [dcg_src runtime]/*.\[ch\]] \
				  [glob -nocomplain [dcg_src runtime/linux]/*.\[ch\]] \
				  [glob -nocomplain [dcg_src tapset]/*.stp]]
		set r [dcg_sh "cat [lsort $files] | md5sum"]
		set kern_rt_digest [string range [lindex $r 1] 0 15]
	}
	set args [list -I [dcg_src tapset] \
		      -B KCFLAGS=-I[dcg_build tapset/include] \
		      -DMAXACTION=100000 -DSTP_NO_OVERLOAD \
		      -DDCG_RT_DIGEST=0x$kern_rt_digest]
	return [concat $args $extra]
}

# A test program from testsuite/progs, built static in the work dir (the
# guest has no libc of its own; the path is the same on both sides).
proc kern_prog {name} {
	set src [dcg_src testsuite/progs/$name.c]
	set built [dcg_build testsuite/progs/$name]
	if {[file executable $built] && [file mtime $built] >= [file mtime $src]} {
		return $built
	}
	set exe [file join [dcg_vm_workdir] $name]
	set r [dcg_sh "gcc -static -O2 -Wall -o [list $exe] [list $src]"]
	if {[lindex $r 0] != 0} {
		verbose -log [lindex $r 1] 0
		fail "$name: build"
		return ""
	}
	return $exe
}

# The guest kernel's System.map (made by provision from its kallsyms):
# the one of the release under test (DCG_VM_RELEASE), not bookworm's.
# Outside bookworm, KBUILD is a path inside the release's build root.
proc kern_sysmap {} {
	set kb [dcg_vm_env KBUILD]
	if {$kb eq ""} {
		return ""
	}
	set root [dcg_vm_env ROOT]
	set m [file join $kb System.map]
	if {$root ne ""} {
		set m "$root$m"
	}
	return [expr {[file readable $m] ? $m : ""}]
}

# Write a command's output to a file in the work dir; returns the path.
proc kern_save {key name} {
	set path [file join [dcg_vm_workdir] $name]
	set fd [open $path w]
	puts -nonewline $fd [dcg_vm_output $key]
	close $fd
	return $path
}

# ktrace.py CMD ARGS...: each PASS:/FAIL: line is a result "TAG: what".
proc kern_ktrace {tag args} {
	dcg_run_unit $tag [dcg_src testsuite/dyncg.kernel/ktrace.py] {*}$args
}

# A guest command line that makes a tmpfs file of known contents and
# reads it a few times first, so that its page is in the same state
# (cached, active) for every traced read that follows.
proc kern_tmpfs_setup {file} {
	return "mkdir -p /mnt/t && mount -t tmpfs none /mnt/t && printf 'dyncg kernel mode: fifty bytes of tmpfs data.....\\n' > $file && cat $file $file $file > /dev/null && wc -c < $file"
}
