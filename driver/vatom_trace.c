// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vatom: the tracepoints of vatom_trace.h, instantiated once.
 *
 * Copyright (C) 2026 The vatom developers
 */

#define CREATE_TRACE_POINTS
#include "vatom_trace.h"
