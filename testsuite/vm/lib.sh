# testsuite/vm/lib.sh - helpers shared by provision, stap-build and run.
# Sourced, never executed.  Keeps the cache layout in one place so the three
# scripts cannot disagree about where things live.
#
# Cache layout ($DCG_VM_CACHE, default ./vm-cache):
#   env                      shell-sourceable result of provision
#   debs/                    the linux-image .deb while it is being unpacked
#   kernel/<kver>/vmlinuz    compressed image (from the .deb)
#   kernel/<kver>/vmlinux    uncompressed ELF, booted through its PVH entry
#   kbuild/linux-headers-<kver>/   private headers tree with a real System.map
#   stap-runtime/            patched copy of /usr/share/systemtap/runtime (only if needed)
#   stap-dir/                SYSTEMTAP_DIR for stap -p4 (stapconf headers etc.)
#   modules/<hash>.ko        built modules, keyed by script+args+inputs
#   initramfs-base.cpio.gz   busybox + staprun + libraries + /init

# The directory holding these scripts (and the runtime patch).
DCG_VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Cache directory: absolute, so that stap and qemu see the same path whatever
# directory they are started from.
: "${DCG_VM_CACHE:=$PWD/vm-cache}"
mkdir -p "$DCG_VM_CACHE"
DCG_VM_CACHE=$(cd "$DCG_VM_CACHE" && pwd)

vm_msg() { echo "vm: $*"; }
vm_die() { echo "vm: error: $*" >&2; exit "${VM_DIE_RC:-1}"; }

# vm_need CMD PACKAGE: exit 1 with one line naming the Debian package when a
# tool is missing.  Installing packages is the project setup script's job.
vm_need() {
	command -v "$1" >/dev/null 2>&1 ||
		vm_die "missing '$1': install the Debian package '$2'"
}

# vm_headers_common DIR: the "-common" headers tree that a Debian flavour
# tree DIR includes from its one-line Makefile (that is where the generic
# include/linux/*.h live).  Falls back to DIR itself for a full tree.
vm_headers_common() {
	local inc
	inc=$(sed -n 's/^include[ \t]\{1,\}\(\/.*\)\/Makefile$/\1/p' "$1/Makefile" 2>/dev/null | head -1)
	if [ -n "$inc" ] && [ -d "$inc" ]; then echo "$inc"; else echo "$1"; fi
}

# vm_runtime_opt HEADERS_DIR: print the stap option selecting a runtime
# that compiles against these headers ("-R dir", or nothing).
#
# Why: linux 6.1.y stable renamed task_work_cancel(task, func) to
# task_work_cancel_func() and gave task_work_cancel() a different signature.
# SystemTap 4.8's runtime still takes &task_work_cancel, so every module that
# uses task_work (uprobes, process probes) fails to compile.  If the headers
# have the new name and the installed runtime does not know it, build a
# patched copy of the runtime once, in the cache, and point stap at it.
vm_runtime_opt() {
	local hdr common sysrt=/usr/share/systemtap/runtime rt="$DCG_VM_CACHE/stap-runtime"
	hdr=$1
	common=$(vm_headers_common "$hdr")
	if ! grep -q 'task_work_cancel_func' "$common/include/linux/task_work.h" 2>/dev/null ||
	   grep -q 'task_work_cancel_func' "$sysrt/stp_task_work.c"; then
		return 0        # old kernel, or a runtime that already copes
	fi
	if [ ! -f "$rt/.dcg-patched" ]; then
		vm_need patch patch
		vm_msg "patching stap runtime (task_work_cancel -> task_work_cancel_func)" >&2
		rm -rf "$rt.tmp"
		cp -a "$sysrt" "$rt.tmp"
		patch -s -p1 -d "$rt.tmp" < "$DCG_VM_DIR/stap-runtime-task_work_cancel_func.patch" ||
			vm_die "the runtime patch does not apply to $sysrt"
		touch "$rt.tmp/.dcg-patched"
		rm -rf "$rt"; mv "$rt.tmp" "$rt"
	fi
	echo "-R $rt"
}
