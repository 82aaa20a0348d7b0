/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * In-place heapsort for the planning core: O(n log n), no allocation,
 * no recursion, usable in the kernel and in userspace alike.
 */
#ifndef MC_HEAPSORT_H
#define MC_HEAPSORT_H

#define MC_DEFINE_HEAPSORT(name, type)					\
static void name##_sift(type a[], size_t root, size_t n)			\
{									\
	for (;;) {							\
		size_t child = 2 * root + 1;				\
		type tmp;						\
									\
		if (child >= n)						\
			return;						\
		if (child + 1 < n && a[child + 1] > a[child])		\
			child++;					\
		if (a[root] >= a[child])				\
			return;						\
		tmp = a[root];						\
		a[root] = a[child];					\
		a[child] = tmp;						\
		root = child;						\
	}								\
}									\
									\
static void name(type *a, size_t n)					\
{									\
	size_t i;							\
	type tmp;							\
									\
	for (i = n / 2; i-- > 0;)					\
		name##_sift(a, i, n);					\
	for (i = n; i-- > 1;) {						\
		tmp = a[0];						\
		a[0] = a[i];						\
		a[i] = tmp;						\
		name##_sift(a, 0, i);					\
	}								\
}

#endif /* MC_HEAPSORT_H */
