/*
 * kcompat-check.c - uses every kernel entry of runtime/linux/kcompat.h
 * (K1..K6) the way the glue does; kcompat-build.exp compiles it against
 * each release's kernel headers.  The stap entries (S1..S4) need a stap
 * runtime and are built by the VM tests of each release.
 */
#include "kcompat.h"

int kc_msr(void)		/* K1 */
{
	u64 v;

	return dcg_rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &v) ||
	       dcg_wrmsr_safe(MSR_IA32_DEBUGCTLMSR, v);
}

void kc_debugctl(void)		/* K2 */
{
	update_debugctlmsr(get_debugctlmsr() | DEBUGCTLMSR_BTF);
}

int kc_vma(struct mm_struct *mm)	/* K3 */
{
	struct vm_area_struct *vma;
	int n = 0;
	DCG_VMA_ITER(vmi, mm);

	mmap_read_lock(mm);
	DCG_FOR_EACH_VMA(vmi, mm, vma)
		n += !!vma->vm_file;
	mmap_read_unlock(mm);
	return n;
}

int kc_running(struct task_struct *t)	/* K4 */
{
	return task_is_running(t);
}

dcg_ksize_fn kc_ksize;		/* K5 */

int kc_task_work(struct callback_head *w)	/* K6 */
{
	return task_work_add(current, w, TWA_RESUME);
}
