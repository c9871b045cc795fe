// SPDX-License-Identifier: GPL-2.0
/*
 * Placeholder: the addc tests are being written.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
