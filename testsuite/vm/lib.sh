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

# bash only (BASH_SOURCE, arrays, brace expansion): say so under sh instead
# of dash's "Bad substitution" and a wrong DCG_VM_DIR.
[ -n "${BASH_VERSION:-}" ] || { echo "vm: error: lib.sh needs bash, not sh" >&2; return 1; }

# The directory holding these scripts (and the runtime patch).
DCG_VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Cache directory: absolute, so that stap and qemu see the same path whatever
# directory they are started from.
: "${DCG_VM_CACHE:=$PWD/vm-cache}"
mkdir -p "$DCG_VM_CACHE"
DCG_VM_CACHE=$(cd "$DCG_VM_CACHE" && pwd)

vm_msg() { echo "vm: $*"; }

# vm_load_env: source $DCG_VM_CACHE/env.  A cache copied or moved
# elsewhere still names the old place in its env (provision rewrites it):
# say so, and use the same files under the cache as it is now.
vm_load_env() {
	local old
	. "$DCG_VM_CACHE/env"
	case $VMLINUX in "$DCG_VM_CACHE"/*) return 0 ;; esac
	old=${VMLINUX%/kernel/*}
	echo "vm: warning: $DCG_VM_CACHE/env names the cache at $old (a copied or moved cache): using $DCG_VM_CACHE; run testsuite/vm/provision to rewrite env" >&2
	VMLINUX=$DCG_VM_CACHE${VMLINUX#"$old"}
	KBUILD=$DCG_VM_CACHE${KBUILD#"$old"}
	STAP_RUNTIME_OPT=${STAP_RUNTIME_OPT//"$old"/$DCG_VM_CACHE}
}
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

# ---- building guest file trees (run; also inside a release's build root) ----
# copy_in ROOT FILE: copy FILE (and, for a dynamic ELF program, its shared
# libraries) to the same absolute path under ROOT.  Libraries that the
# guest's base archive already has are skipped when VM_BASE_LIST names a
# file listing the base (a release guest whose libc is newer than the
# host's: its own libraries must win, see run).
copy_in() {
	local root=$1 f=$2 lib
	copy_path "$root" "$f"
	# ldd prints "name => /path (addr)" and "/lib64/ld-linux... (addr)".
	{ ldd "$f" 2>/dev/null || true; } |
		awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' |
		while read -r lib; do
			vm_base_has "$lib" || copy_path "$root" "$lib"
		done
}

# copy_path ROOT PATH: make PATH resolve under ROOT as it does on the host.
# Every symbolic link on the way becomes the same link (a directory such as
# /lib -> usr/lib of Debian's merged /usr, /lib64/ld-linux-x86-64.so.2 ->
# /lib/x86_64-linux-gnu/..., a library's soname link), and files and
# directories land at their canonical paths.  Why: the guest kernel names a
# mapping by its real path, and stap (-d, --ldd) knows a library by the
# host's real path; copying /lib/x86_64-linux-gnu/libc.so.6 as a file into
# a real /lib directory left stap with no names for libc and ld.so in the
# guest.  ROOT only ever gets real directories at canonical paths, so the
# kernel's initramfs unpacker never meets a directory where the base
# archive has a link (it would replace the link by the directory).
copy_path() {
	local root=$1 p=$2 pre= rest dir
	rest=${p#/}
	while [ "$rest" != "${rest#*/}" ]; do	# each directory on the way
		pre=$pre/${rest%%/*}
		rest=${rest#*/}
		[ ! -L "$pre" ] || copy_link "$root" "$pre"
	done
	if [ -L "$p" ]; then
		copy_link "$root" "$p"
	elif [ -d "$p" ]; then
		mkdir -p "$root$(realpath -e "$p")"
	else
		dir=$(realpath -e "$(dirname "$p")") || vm_die "cannot resolve $p"
		[ -e "$root$dir/${p##*/}" ] && return
		mkdir -p "$root$dir"
		cp "$p" "$root$dir/${p##*/}"
	fi
}

# copy_link ROOT LINK: the link itself, at its canonical place, then what
# it points to.
copy_link() {
	local root=$1 l=$2 dir t
	dir=$(realpath -e "$(dirname "$l")") || vm_die "cannot resolve $l"
	[ ! -L "$root${dir%/}/${l##*/}" ] || return 0	# done (also ends cycles)
	t=$(readlink "$l")
	mkdir -p "$root$dir"
	ln -s "$t" "$root${dir%/}/${l##*/}"
	case $t in /*) ;; *) t=${dir%/}/$t ;; esac
	[ ! -e "$t" ] || copy_path "$root" "$t"
}

# vm_base_has LIB: is LIB in the base archive list, under its own name in
# its canonical directory?  Not under the name it resolves to: ldd names a
# library by its soname link (libstdc++.so.6), whose target is versioned
# (the host's libstdc++.so.6.0.30, the release's 6.0.33).  Asking for the
# host's target name missed the base's link, and the per-run archive then
# replaced the release's link by the host's older library: sid's staprun
# died with "GLIBCXX_3.4.31 not found" whenever a test program was C++.
vm_base_has() {
	local dir
	[ -n "${VM_BASE_LIST:-}" ] && [ -f "$VM_BASE_LIST" ] || return 1
	dir=$(realpath -e "$(dirname "$1")" 2>/dev/null) || return 1
	grep -qxF ".$1" "$VM_BASE_LIST" ||
		grep -qxF ".${dir%/}/${1##*/}" "$VM_BASE_LIST"
}

# vm_guest_tree DIR [EXTRA...]: the guest userland under DIR: this
# system's top-level layout, static busybox with its applets, staprun and
# stapio with their libraries, EXTRA programs (they replace a busybox
# applet of the same name), passwd and group.  Runs on the host for the
# default release and inside a release's build root for the others, so the
# guest gets that release's staprun.
vm_guest_tree() {
	local r=$1 d a bb x
	shift
	mkdir -p "$r"/{usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc,dcg}
	# The top-level layout: on a merged /usr these are links into /usr.
	for d in /bin /sbin /lib /lib64; do
		[ ! -e "$d" ] || copy_path "$r" "$d"
	done
	copy_path "$r" /bin/busybox
	# Applets next to busybox (/usr/bin on a merged /usr, reached as /bin
	# too).  Debian's applet list contains "busybox" itself: linking that
	# would make a self-referencing symlink (ELOOP).
	bb=$r$(realpath -e /bin)
	for a in $(/bin/busybox --list); do
		[ "$a" = busybox ] || [ -e "$bb/$a" ] || ln -s busybox "$bb/$a"
	done
	for x in "$@"; do
		x=$(command -v "$x") || vm_die "no $x in this root"
		rm -f "$r$(realpath -e "$(dirname "$x")")/$(basename "$x")"
		copy_in "$r" "$x"
	done
	copy_in "$r" /usr/bin/staprun
	copy_in "$r" /usr/lib/systemtap/stapio
	echo 'root:x:0:0:root:/root:/bin/sh' > "$r/etc/passwd"
	echo 'root:x:0:' > "$r/etc/group"
}

# ---- other Debian releases (provision --release NAME, DCG_VM_RELEASE) ------
# The default release, bookworm, is the host's own: host stap, host headers,
# no build root.  Any other release gets a debootstrap'd build root in the
# system cache, shared by every clone on this machine.
: "${DCG_VM_SYSCACHE:=/var/cache/dyncg}"
DCG_VM_RELEASES="bullseye bookworm trixie sid"

# vm_release_check NAME: die unless NAME is a release we know.
vm_release_check() {
	case " $DCG_VM_RELEASES " in
	*" $1 "*) ;;
	*) VM_DIE_RC=2 vm_die "unknown release '$1' (known: $DCG_VM_RELEASES)" ;;
	esac
}

# vm_release_recipe NAME: what the build root of NAME is made of.  Its hash
# names the root's directory, so a changed recipe makes a new root.
vm_release_recipe() {
	echo "recipe 1"
	echo "suite $1"
	echo "variant minbase"
	echo "packages systemtap systemtap-runtime gcc libc6-dev make linux-headers-amd64 busybox-static"
	# trixie's stap 5.1 predates the 6.12 uprobes API: take sid's.
	[ "$1" != trixie ] || echo "stap-from sid"
}

# vm_release_root NAME: the directory of NAME's build root (may not exist).
vm_release_root() {
	echo "$DCG_VM_SYSCACHE/$1-$(vm_release_recipe "$1" | sha256sum | cut -c1-12)"
}

# vm_host_mirror: the Debian mirror of this host's own apt sources (read,
# never changed): the first "URIs:" (deb822) or "deb URL" ending in /debian.
vm_host_mirror() {
	local m
	m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		sed -n -e 's/^URIs:[ \t]*//p' -e 's/^deb[ \t]\{1,\}\(\[[^]]*\][ \t]*\)\{0,1\}//p' |
		tr ' \t' '\n\n' | grep -E '^https?://[^ ]*/debian/?$' | head -1)
	[ -n "$m" ] || vm_die "no Debian mirror (a URL ending in /debian) in /etc/apt/sources.list*"
	echo "${m%/}"
}

# vm_chroot ROOT CMD...: run CMD inside the build root ROOT, in a private
# mount namespace (nothing stays mounted when it ends), with /proc, /dev
# and /sys, and with host directories bind-mounted at the same absolute
# paths: the top-level directory of every path in VM_BIND (space
# separated) that is not part of the root's own system (/usr, /etc...).
# Same paths matter: stap resolves uprobe targets by path, and the guest
# finds them at the host's path.  VM_HOSTLIBS (space separated paths):
# host files bind-mounted over the root's files of the same path.
vm_chroot() {
	local root=$1
	shift
	local p top tops=" "
	for p in ${VM_BIND:-}; do
		case $p in /*) ;; *) continue ;; esac
		top=/$(echo "$p" | cut -d/ -f2)
		# "/.." (from a relative "../x" argument) would bind the
		# host's / over the root's parent, hiding the root itself
		case $top in /|/.|/..|/usr|/etc|/var|/bin|/sbin|/lib|/lib64|/lib32|/libx32|/boot|/opt|/proc|/sys|/dev|/run|/srv) continue ;; esac
		[ -d "$top" ] || continue
		case $tops in *" $top "*) ;; *) tops="$tops$top " ;; esac
	done
	unshare -m --propagation private bash -c '
		set -e
		root=$1; tops=$2; shift 2
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		mount --rbind /sys "$root/sys"
		for t in $tops; do
			mkdir -p "$root$t"
			mount --rbind "$t" "$root$t"
		done
		# VM_HOSTLIBS: host files to use in place of the root'"'"'s, as
		# they are on the host (a file where the root has a link:
		# bullseye'"'"'s libc.so.6 -> libc-2.31.so would make stap name
		# libc-2.31.so, a file the guest never maps).  One read-only
		# overlay per canonical directory, the host'"'"'s files on top.
		if [ -n "${VM_HOSTLIBS:-}" ]; then
			# A tmpfs on the root'"'"'s /mnt, gone with the namespace.
			ov=$root/mnt
			mount -t tmpfs tmpfs "$ov"
			dirs=
			for f in $VM_HOSTLIBS; do
				d=$(realpath -e "$(dirname "$f")") || continue
				[ -d "$root$d" ] && [ ! -L "$root$d" ] || continue
				mkdir -p "$ov$d"
				cp -P "$f" "$ov$d/"
				case " $dirs " in *" $d "*) ;; *) dirs="$dirs $d" ;; esac
			done
			for d in $dirs; do
				mount -t overlay overlay -o ro,lowerdir="$ov$d:$root$d" "$root$d"
			done
		fi
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LC_ALL=C.UTF-8 "$@"
	' vm_chroot "$root" "$tops" "$@"
}

# vm_host_glibc: the shared objects of the host's glibc (package libc6).
# For a release whose guest runs the host's glibc (GUEST_LIBS=host,
# bullseye), stap-build mounts them over the root's, so that stap reads
# (-d, --ldd, process("libc...")) the very libc and ld.so the guest maps;
# all of glibc at once, because its pieces only work with each other.
vm_host_glibc() {
	dpkg -L libc6 2>/dev/null | grep -E '/(ld-linux[^/]*|lib[^/]*\.so[.0-9]*)$' | tr '\n' ' '
}

# vm_release_env NAME: source the env of release NAME (provision writes it).
vm_release_env() {
	local d
	d=$(vm_release_root "$1")
	[ -f "$d/env" ] || vm_die "release $1 is not provisioned: run testsuite/vm/provision --release $1"
	. "$d/env"
}

# vm_extract_vmlinux VMLINUZ VMLINUX: the ELF kernel inside a bzImage.
# A bzImage is setup code + decompressor + a compressed stream holding the
# ELF vmlinux: XZ on Debian's 5.10 and 6.1, zstd on 6.12 and 7.x.  QEMU
# boots that ELF directly through its PVH note, which skips real-mode
# setup and decompression: about 3x faster under TCG.  Find the first
# stream magic and decompress from there; both tools complain about the
# bytes after the stream (the kernel's size trailer), which is fine: the
# result is checked for an ELF header instead.
vm_extract_vmlinux() {
	local z=$1 out=$2 off
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$z" | head -1 | cut -d: -f1 || true)
	if [ -n "$off" ]; then
		tail -c +"$((off + 1))" "$z" | xz -dc > "$out.tmp" 2>/dev/null || true
	else
		off=$(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$z" | head -1 | cut -d: -f1 || true)
		[ -n "$off" ] || vm_die "no XZ or zstd stream in $z (another compression?)"
		vm_need zstd zstd
		tail -c +"$((off + 1))" "$z" | zstd -dcq > "$out.tmp" 2>/dev/null || true
	fi
	[ "$(head -c 4 "$out.tmp" | od -An -c | tr -d ' ')" = '177ELF' ] ||
		vm_die "the kernel decompressed from $z is not an ELF file"
	mv "$out.tmp" "$out"
}
