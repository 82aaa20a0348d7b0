// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The data path's tracepoints (kmod/trace.h, docs/tracing.md): defined
 * here, once; every other file only includes the header.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
