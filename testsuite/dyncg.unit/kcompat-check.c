/*
 * kcompat-check.c - uses every kernel entry of runtime/linux/kcompat.h
 * (K1..K6, K8) the way the glue does; kcompat-build.exp compiles it against
 * each release's kernel headers.  The stap entries (S1..S4) need a stap
 * runtime and are built by the VM tests of each release.
 */
#include "kcompat.h"
#include "build_id.c"	/* K3: the file reads of the mapping walk */

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

int kc_vma(struct mm_struct *mm)	/* K3, as transport.c walks */
{
	struct vm_area_struct *vma;
	struct file *f = NULL;
	int n = 0;

	mmap_read_lock(mm);
	for (vma = find_vma(mm, 0); vma; vma = find_vma(mm, vma->vm_end))
		if (vma->vm_file && !f)
			f = get_file(vma->vm_file);
	mmap_read_unlock(mm);
	if (f) {
		u8 id[DCG_BID_MAX_LEN];

		n = dcg_build_id(f, id, NULL);
		fput(f);
	}
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

u32 kc_irq_counts(void)		/* K8 */
{
	struct dcg_irqc c;

	dcg_irq_counts(&c);
	return c.timer + c.ipi + c.nmi + c.other + c.softirq + c.device;
}

int kc_shstk(void)			/* K13 */
{
	return dcg_current_has_shstk();
}
