/* The families in the order each user builds them. The orders are part of
 * the output: the case files are compared byte for byte, and the recorded
 * audits replay the inference's cases by index and hash. */
#include <stddef.h>

#include "cases/families/families.h"

const tc_family *const tc_families_text[] = {
    &tc_family_subnormal, &tc_family_products, &tc_family_align,    &tc_family_round,
    &tc_family_block,     &tc_family_cplace,   &tc_family_carry,    &tc_family_monotone,
    &tc_family_specials,  &tc_family_order,    &tc_family_determinism, NULL,
};

const tc_family *const tc_families_crafted[] = {
    &tc_family_specials, &tc_family_nan_payload, &tc_family_convert,      &tc_family_subnormal,
    &tc_family_align,    &tc_family_wide,        &tc_family_round,        &tc_family_double_round,
    &tc_family_block,    NULL,
};
