/* Vector kernels of the compiled FOGD feature map (refsvm/_fast/ogd_core.pxd).
 *
 * refsvm_sincos_block: z[2j], z[2j+1] = scale sin(p[j]), scale cos(p[j]) for j < D, with
 * branch-free double arithmetic the compiler vectorises.  Cody-Waite reduction x = k pi/2 + r
 * with pi/2 in three parts (fdlibm's pio2_1 / pio2_2 / pio2_2t: the first has 33 significant
 * bits, so k pio2_1 is exact for |k| < 2^20), then fdlibm's minimax polynomials for sin and cos
 * on |r| <= pi/4 (__kernel_sin / __kernel_cos of Sun's fdlibm 5.3, polynomial error < 2^-58),
 * the quadrant k mod 4 chosen by multiplying with exact 0/1 factors.  Rounding to the nearest
 * integer uses the 1.5 * 2^52 addition (exact for |x| < 2^50; kept by the compiler: no
 * -ffast-math).  For |x| <= REFSVM_SINCOS_LIMIT = 2^18 the absolute error of each value is
 * below 4.5e-16 (two units in the last place of 1) against glibc (tests/test_fogd_sincos.py); a
 * block with a larger |x| or a NaN is computed by libm's sin and cos instead.  p holds the D
 * phases (not changed).
 *
 * refsvm_axpy: y += a x.  refsvm_phases: the feature map's p = U x over the nonzero inputs.
 *
 * All are compiled three times on x86-64 Linux with GCC (target_clones: AVX-512F, AVX2 and the
 * baseline SSE2) and the loader picks the one the CPU runs.  The extension is built with
 * -ffp-contract=off, so neither clone fuses a multiply and an add: both compute the same IEEE
 * operations in the same order and give bitwise the same results (each element's arithmetic is
 * the same IEEE operations whatever the vector width).
 */
#ifndef REFSVM_FASTMATH_H
#define REFSVM_FASTMATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define REFSVM_SINCOS_LIMIT 262144.0

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define REFSVM_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define REFSVM_CLONES
#endif

REFSVM_CLONES
static void refsvm_sincos_block(double *p, ptrdiff_t D, double scale, double *z)
{
    const double MAGIC = 6755399441055744.0;               /* 1.5 * 2^52 */
    const double TWO_OVER_PI = 6.36619772367581382433e-01;
    const double PIO2_1 = 1.57079632673412561417e+00;      /* first 33 bits of pi/2 */
    const double PIO2_2 = 6.07710050630396597660e-11;      /* next 33 bits */
    const double PIO2_2T = 2.02226624879595063154e-21;     /* pi/2 - (pio2_1 + pio2_2) */
    const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03;
    const double S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06;
    const double S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
    const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03;
    const double C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07;
    const double C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
    double m = 0.0;
    ptrdiff_t j;
    for (j = 0; j < D; j++) {
        double a = fabs(p[j]);
        m = a > m ? a : m;
    }
    if (!(m <= REFSVM_SINCOS_LIMIT)) {                    /* large or NaN: libm */
        for (j = 0; j < D; j++) {
            z[2 * j] = sin(p[j]) * scale;
            z[2 * j + 1] = cos(p[j]) * scale;
        }
        return;
    }
    for (j = 0; j < D; j++) {                              /* vectorised: no branch, no call */
        double x = p[j];
        double k = (x * TWO_OVER_PI + MAGIC) - MAGIC;      /* nearest integer to x 2/pi */
        double r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_2T;
        double fl = ((k * 0.25 - 0.375) + MAGIC) - MAGIC;  /* floor(k / 4) */
        double q = k - 4.0 * fl;                           /* k mod 4 in {0, 1, 2, 3} */
        double h = ((q * 0.5 - 0.25) + MAGIC) - MAGIC;     /* floor(q / 2): 0 0 1 1 */
        double odd = q - 2.0 * h;                          /* q mod 2:      0 1 0 1 */
        double rr = r * r;
        double ss = r + (r * rr) * (S1 + rr * (S2 + rr * (S3 + rr * (S4 + rr * (S5 + rr * S6)))));
        double hz = 0.5 * rr;
        double w = 1.0 - hz;
        double cc = w + (((1.0 - w) - hz) + (rr * rr) * (C1 + rr * (C2 + rr * (C3 + rr * (C4 + rr * (C5 + rr * C6))))));
        double sv = (1.0 - odd) * ss + odd * cc;           /* exact selection (0/1 factors) */
        double cv = (1.0 - odd) * cc + odd * ss;
        z[2 * j] = ((1.0 - 2.0 * h) * sv) * scale;         /* sin x: +s, +c, -s, -c by quadrant */
        z[2 * j + 1] = ((1.0 - 2.0 * (h + odd - 2.0 * h * odd)) * cv) * scale;   /* cos x: +c, -s, -c, +s */
    }
}

REFSVM_CLONES
static void refsvm_axpy(ptrdiff_t n, double a, const double *x, double *y)
{
    ptrdiff_t j;
    for (j = 0; j < n; j++)
        y[j] += a * x[j];
}

/* p = sum_k x_k UT[k] over the nonzero x_k (UT: d rows of length D), accumulated in the order of k,
 * four rows per sweep over p: t = p[j]; t += x_a UT[a][j]; ...; p[j] = t keeps p[j] in a register
 * between the four products, so the sums are bitwise those of one axpy per nonzero x_k, with a
 * quarter of the loads and stores of p.  nz is scratch for d indices. */
REFSVM_CLONES
static void refsvm_phases_nz(const double *UT, ptrdiff_t D, const ptrdiff_t *nz, const double *x,
                             ptrdiff_t m, int packed, double *p)
{
    /* p = sum_k v_k UT[nz[k]] over the m nonzero inputs nz (increasing), four rows at a time;
       v_k = x[k] (packed: a sparse row's values) or x[nz[k]] (a dense row) */
    ptrdiff_t j, k;
    for (j = 0; j < D; j++)
        p[j] = 0.0;
    for (k = 0; k + 4 <= m; k += 4) {
        const double a = packed ? x[k] : x[nz[k]], b = packed ? x[k + 1] : x[nz[k + 1]];
        const double c = packed ? x[k + 2] : x[nz[k + 2]], e = packed ? x[k + 3] : x[nz[k + 3]];
        const double *ra = UT + nz[k] * D, *rb = UT + nz[k + 1] * D;
        const double *rc = UT + nz[k + 2] * D, *re = UT + nz[k + 3] * D;
        for (j = 0; j < D; j++) {
            double t = p[j];
            t += a * ra[j];
            t += b * rb[j];
            t += c * rc[j];
            t += e * re[j];
            p[j] = t;
        }
    }
    for (; k < m; k++)
        refsvm_axpy(D, packed ? x[k] : x[nz[k]], UT + nz[k] * D, p);
}

static void refsvm_phases(const double *UT, ptrdiff_t D, ptrdiff_t d, const double *x, double *p,
                          ptrdiff_t *nz)
{
    /* a dense x: its nonzero inputs, in index order */
    ptrdiff_t k, m = 0;
    for (k = 0; k < d; k++)
        if (x[k] != 0.0)
            nz[m++] = k;
    refsvm_phases_nz(UT, D, nz, x, m, 0, p);
}

static void refsvm_phases_sparse(const double *UT, ptrdiff_t D, const int32_t *idx, const double *val,
                                 ptrdiff_t m, double *p, ptrdiff_t *nz)
{
    /* a sparse x (canonical CSR row: m values, increasing indices): the same sums as the dense x */
    ptrdiff_t k;
    for (k = 0; k < m; k++)
        nz[k] = idx[k];
    refsvm_phases_nz(UT, D, nz, val, m, 1, p);
}

#endif
