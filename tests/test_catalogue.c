/* The catalogue: names say exactly what the fields hold, no duplicates, and
 * the ISA's shape rules hold for every entry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "probes/probes.h"
#if TC_HAVE_CUDA
#include "probes/gpu.h"
#endif

/* Re-derives the name from the fields, independently of catalogue.c's printf. */
static void names_are_made_of_their_fields(void **state)
{
    size_t n;
    const tc_instr *c = tc_catalogue(&n);
    assert_true(n > 150);
    for (size_t i = 0; i < n; i++) {
        char api[16], rest[64];
        int m, nn, k;
        char f1[8], f2[8], f3[8], f4[8], suffix[8] = "";
        const char *dot = strstr(c[i].name, ".m");
        assert_non_null(dot);
        snprintf(api, sizeof api, "%.*s", (int)(dot - c[i].name), c[i].name);
        assert_string_equal(api, c[i].api);
        snprintf(rest, sizeof rest, "%s", dot + 1);
        for (char *p = rest; *p; p++)
            if (*p == '.')
                *p = ' ';
        int got = sscanf(rest, "m%dn%dk%d %7s %7s %7s %7s", &m, &nn, &k, f1, f2, f3, f4);
        assert_int_equal(m, c[i].m);
        assert_int_equal(nn, c[i].n);
        assert_int_equal(k, c[i].k);
        assert_string_equal(f1, c[i].d->name);
        assert_string_equal(f2, c[i].a->name);
        assert_string_equal(f3, c[i].b->name);
        if (!strncmp(c[i].api, "wgmma", 5)) {
            /* wgmma: D.A.B, C is D, optional .rs */
            assert_true(got == 6 || got == 7);
            if (got == 7)
                snprintf(suffix, sizeof suffix, "%s", f4);
            assert_string_equal(suffix, c[i].a_in_regs ? "rs" : "");
            assert_ptr_equal(c[i].c, c[i].d);
        } else {
            assert_int_equal(got, 7);
            assert_string_equal(f4, c[i].c->name);
            assert_false(c[i].a_in_regs);
        }
    }
}

static void names_are_unique_and_found(void **state)
{
    size_t n;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        assert_ptr_equal(tc_instr_by_name(c[i].name), &c[i]);
        for (size_t j = i + 1; j < n; j++)
            assert_string_not_equal(c[i].name, c[j].name);
    }
    assert_null(tc_instr_by_name("mma.m16n8k16.f32.f16.f16"));
    assert_null(tc_instr_by_name(""));
    assert_null(tc_instr_by_name(NULL));
}

/* ISA shape rules: K times the input width is 256 bits for mma m16n8 (128 for
 * the k8/k4 halves), 256 bits per wgmma (dense), f64 shapes, sparse doubles K. */
static void shapes_follow_the_isa(void **state)
{
    size_t n;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        const tc_instr *e = &c[i];
        int kbits = e->k * e->a->storage_bits / (e->sparse ? 2 : 1);
        assert_int_equal(e->a->storage_bits, e->b->storage_bits);
        assert_ptr_equal(e->c, e->d); /* every entry here accumulates in its output format */
        if (!strncmp(e->api, "wgmma", 5)) {
            assert_int_equal(e->m, 64);
            assert_int_equal(e->n % 8, 0);
            assert_true(e->n >= 8 && e->n <= 256);
            assert_int_equal(kbits, 256);
            assert_int_equal(e->sm_min, 90);
            assert_string_equal(e->sass, e->a->storage_bits == 8 ? "QGMMA" : "HGMMA");
        } else if (!strcmp(e->api, "wmma")) {
            assert_int_equal(e->m, 16);
            assert_int_equal(e->n, 16);
            assert_int_equal(kbits, 256);
        } else if (e->a->storage_bits == 64) {
            assert_string_equal(e->sass, "DMMA");
            assert_true(e->k == 4 || e->k == 8 || e->k == 16);
        } else {
            assert_int_equal(e->m, 16);
            assert_int_equal(e->n, 8);
            assert_true(kbits == 256 || kbits == 128);
            assert_string_equal(e->sass, e->a->specials == TC_SPECIALS_INT ? "IMMA" : "HMMA");
        }
        assert_int_equal(e->sparse, strstr(e->api, ".sp") != NULL);
    }
}

/* What issue 4 lists must be there. */
static void required_entries_exist(void **state)
{
    static const char *const need[] = {
        "mma.m16n8k8.f16.f16.f16.f16", "mma.m16n8k16.f32.f16.f16.f32", "mma.m16n8k8.f32.bf16.bf16.f32",
        "mma.m16n8k16.f32.bf16.bf16.f32", "mma.m16n8k4.f32.tf32.tf32.f32", "mma.m16n8k8.f32.tf32.tf32.f32",
        "mma.m16n8k32.f32.e4m3.e5m2.f32", "mma.m16n8k32.f16.e5m2.e5m2.f16", "mma.m8n8k4.f64.f64.f64.f64",
        "mma.m16n8k16.f64.f64.f64.f64", "mma.m16n8k32.s32.u8.s8.s32", "mma.sp.m16n8k32.f32.bf16.bf16.f32",
        "mma.sp.m16n8k64.f32.e4m3.e4m3.f32", "wmma.m16n16k8.f32.tf32.tf32.f32", "wgmma.m64n256k32.f32.e4m3.e4m3",
        "wgmma.m64n8k16.f16.f16.f16.rs", "wgmma.m64n128k8.f32.tf32.tf32", "wgmma.m64n64k32.f16.e5m2.e4m3.rs",
        "wgmma.sp.m64n256k64.f32.e5m2.e5m2"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        if (!tc_instr_by_name(need[i]))
            fail_msg("missing %s", need[i]);
    }
}

/* The generated kernels (probes/isa/gen.py) and the catalogue agree: every
 * dense entry has a kernel under its own name, every kernel is an entry
 * (the dense families here; mma.sp's and wgmma.sp's in tests/test_sparse.c). */
static void every_dense_entry_has_a_gpu_kernel(void **state)
{
#if TC_HAVE_CUDA
    size_t n;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        const tc_gpu_kernel *k = tc_gpu_kernel_find(c[i].name);
        if (!k) /* sparse entries too; their families are checked in tests/test_sparse.c */
            fail_msg("%s: no kernel", c[i].name);
        else
            assert_string_equal(k->name, c[i].name);
    }
    typedef const tc_gpu_kernel *(*fam)(size_t *);
    const fam fams[] = {tc_gpu_kernels_mma, tc_gpu_kernels_wgmma_f16, tc_gpu_kernels_wgmma_tf32,
                        tc_gpu_kernels_wgmma_fp8};
    size_t total = 0;
    for (size_t f = 0; f < 4; f++) {
        size_t m;
        const tc_gpu_kernel *k = fams[f](&m);
        for (size_t i = 0; i < m; i++)
            assert_non_null(tc_instr_by_name(k[i].name));
        total += m;
    }
    assert_int_equal(total, 172);
    /* chains: every dense floating-point entry has one, sparse and integer none */
    for (size_t i = 0; i < n; i++) {
        const tc_gpu_chain_kernel *ck = tc_gpu_chain_kernel_find(c[i].name);
        bool want = !c[i].sparse && !tc_format_is_int(c[i].a);
        if (want != (ck != NULL))
            fail_msg("%s: %s", c[i].name, want ? "no chain kernel" : "a chain kernel it cannot use");
        if (ck)
            assert_true(ck->block == (strncmp(c[i].name, "wgmma", 5) ? 256 : 128));
    }
#else /* no kernel table in a build without nvcc: the backend must say so, and the test is a skip */
    char err[128];
    assert_null(tc_backend_open("gpu", err, sizeof err));
    assert_string_equal(err, "no GPU backend: built without nvcc");
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_are_made_of_their_fields),
        cmocka_unit_test(names_are_unique_and_found),
        cmocka_unit_test(shapes_follow_the_isa),
        cmocka_unit_test(required_entries_exist),
        cmocka_unit_test(every_dense_entry_has_a_gpu_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
