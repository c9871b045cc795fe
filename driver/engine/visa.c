// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Placeholder: being written. */
#include "vatom_engine.h"
