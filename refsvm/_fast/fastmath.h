/* All the hand-written C of the compiled twin (refsvm/_fast/), in one header.  Cython modules
 * declare what they call with `cdef extern from "fastmath.h"` (kernels.pxd, ogd_core.pxd,
 * budget.pyx); every function is static, so each extension module gets its own copy.
 *
 *   1. Function multi-versioning: REFSVM_CLONES (AVX-512F, AVX2, baseline) and
 *      REFSVM_MULTIVERSION (AVX2, baseline).
 *   2. CPython's u ** 2: refsvm_libm_pow, refsvm_py_square (kernels.pxd: libm_pow, py_square).
 *   3. exp of a Gaussian kernel row: refsvm_exp_row (kernels.pxd: exp_row).
 *   4. Four rows per sweep: REFSVM_ADD_FOUR_ROWS, used by refsvm_dots_by_feature (kernels.pxd:
 *      dots_by_feature) and refsvm_phases_nz.
 *   5. The FOGD / NOGD feature map: refsvm_sincos_block, refsvm_axpy, refsvm_phases,
 *      refsvm_phases_sparse (ogd_core.pxd).
 *   6. The sign flags of merge candidates: refsvm_sign_flags (budget.pyx: sign_flags).
 *   7. The Projectron's triangular solves: refsvm_forward_solve, refsvm_backward_solve (online.pyx).
 *
 * The extension is built with -ffp-contract=off, so no clone fuses a multiply and an add: every
 * clone computes the same IEEE operations in the same order and gives bitwise the same results.
 */
#ifndef REFSVM_FASTMATH_H
#define REFSVM_FASTMATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- 1. function multi-versioning (GCC on x86-64 Linux; elsewhere one plain version) ---- */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define REFSVM_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#define REFSVM_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#define REFSVM_CLONES
#define REFSVM_MULTIVERSION
#endif

/* ---- 2. CPython's u ** 2 ---- */
static double (* volatile refsvm_libm_pow_ptr)(double, double) = pow;
static inline double refsvm_libm_pow(double x, double y) { return refsvm_libm_pow_ptr(x, y); }

/* u ** 2 exactly as CPython computes it (libm's pow(u, 2.0)), but cheaply.
   pow's error is below 0.54 ulp (glibc), so pow(u, 2) can differ from the
   correctly rounded p = u*u only when the exact square lies within 0.04 ulp
   of the midpoint between p and a neighbour.  The exact rounding error e of
   p (Dekker's product with Veltkamp's split) tells: if |e| < 0.45 ulp(p),
   pow returns p; otherwise (about 10 % of the cases), and for zero, powers
   of two, tiny or non-finite p, ask pow itself (u = 0 and u = 1, the end
   points of every search, are exact cases of pow). */
static inline double refsvm_py_square(double u) {
    double p = u * u;
    double c = 134217729.0 * u;
    double hi = c - (c - u);
    double lo = u - hi;
    double e = ((hi * hi - p) + 2.0 * hi * lo) + lo * lo;
    uint64_t bits, expo, ub;
    double ulp;
    if (u == 0.0 || u == 1.0)      /* exact by C99 Annex F: pow(+-0, 2) = +0, pow(1, y) = 1 */
        return u == 0.0 ? 0.0 : 1.0;
    memcpy(&bits, &p, sizeof bits);
    expo = bits & 0x7FF0000000000000ULL;
    if (expo >= (54ULL << 52) && expo < 0x7FE0000000000000ULL && (bits & 0x000FFFFFFFFFFFFFULL) != 0) {
        ub = expo - (52ULL << 52);
        memcpy(&ulp, &ub, sizeof ulp);
        if (fabs(e) < 0.45 * ulp)
            return p;
    }
    return refsvm_libm_pow(u, 2.0);
}

/* ---- 3. exp of a Gaussian kernel row ---- */
/* exp of a Gaussian kernel row (kernels.pxd, rbf_row_gather): four lanes at a
   time (2^n p(r), r = x - n ln2, |r| <= ln2/2, degree-13 Taylor
   polynomial; at most 1 ulp from libm's exp, as numpy's own SIMD exp).
   exp_row gets an AVX2 clone, picked at run time where the CPU has it
   (GCC function multi-versioning; the extension is built with
   -ffp-contract=off, so the clone makes the same IEEE operations in the
   same order).  An AVX-512 clone was tried: 9 % faster on a9a (d = 123),
   20 % slower on ijcnn1 (d = 22); not kept.  Lanes outside [-700, 700]
   or NaN go to libm.  Other compilers: a plain loop with libm's exp. */
#if defined(__GNUC__)
typedef double refsvm_v4d __attribute__((vector_size(32)));
typedef int64_t refsvm_v4i __attribute__((vector_size(32)));
static inline void refsvm_exp4(double* io) {      /* in place on io[0..3] (no vector ABI) */
    refsvm_v4d x;
    const refsvm_v4d magic = {0x1.8p52, 0x1.8p52, 0x1.8p52, 0x1.8p52};
    const double log2e = 0x1.71547652b82fep0;
    const double ln2hi = 0x1.62e42fefa3800p-1, ln2lo = 0x1.ef35793c76730p-45;
    refsvm_v4d t, nd, r, p, s;
    refsvm_v4i ti, mi, e;
    memcpy(&x, io, sizeof x);
    t = x * log2e + magic;                      /* magic: round x / ln2 to an integer n */
    nd = t - magic;
    r = (x - nd * ln2hi) - nd * ln2lo;
    p = r * (1.0 / 6227020800.0) + (1.0 / 479001600.0);
    p = p * r + (1.0 / 39916800.0);
    p = p * r + (1.0 / 3628800.0);
    p = p * r + (1.0 / 362880.0);
    p = p * r + (1.0 / 40320.0);
    p = p * r + (1.0 / 5040.0);
    p = p * r + (1.0 / 720.0);
    p = p * r + (1.0 / 120.0);
    p = p * r + (1.0 / 24.0);
    p = p * r + (1.0 / 6.0);
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    memcpy(&ti, &t, sizeof ti);                 /* the low bits of t hold n */
    memcpy(&mi, &magic, sizeof mi);
    e = ((ti - mi) + 1023) << 52;               /* 2^n */
    memcpy(&s, &e, sizeof s);
    p = p * s;
    memcpy(io, &p, sizeof p);
}
#endif
/* exp(v) for lanes outside the vector range: below -746 the exact value is
   under half the smallest subnormal, so the correctly rounded result (and
   numpy's) is +0; return it without calling libm, whose underflow path
   costs ~100 ns per call (far-away points of unscaled data, e.g. raw
   spambase). */
static inline double refsvm_exp_or_zero(double v) { return v < -746.0 ? 0.0 : exp(v); }
REFSVM_MULTIVERSION
static void refsvm_exp_row(double* out, Py_ssize_t n) {    /* out[k] = exp(out[k]) */
    Py_ssize_t j = 0, k;
#if defined(__GNUC__)
    for (; j + 4 <= n; j += 4) {
        double* v = out + j;
        if (v[0] >= -700.0 && v[1] >= -700.0 && v[2] >= -700.0 && v[3] >= -700.0 &&
            v[0] <= 700.0 && v[1] <= 700.0 && v[2] <= 700.0 && v[3] <= 700.0) {
            refsvm_exp4(v);
        } else {
            for (k = 0; k < 4; k++)
                out[j + k] = refsvm_exp_or_zero(out[j + k]);
        }
    }
#endif
    for (; j < n; j++)
        out[j] = refsvm_exp_or_zero(out[j]);
}

/* ---- 4. four rows per sweep ---- */
/* out[j] += a0 r0[j] + a1 r1[j] + a2 r2[j] + a3 r3[j] for j < n, added in that order, the partial
   sum kept in a register (t = out[j]; t += a0 r0[j]; ...; out[j] = t): bitwise the sums of four
   sweeps out[j] += a r[j] one row at a time, with a quarter of the loads and stores of out.  j is
   the caller's loop index (its type is the caller's); the loop vectorises along j. */
#define REFSVM_ADD_FOUR_ROWS(out, n, j, a0, r0, a1, r1, a2, r2, a3, r3) \
    for ((j) = 0; (j) < (n); (j)++) {                                  \
        double t_ = (out)[j];                                          \
        t_ += (a0) * (r0)[j];                                          \
        t_ += (a1) * (r1)[j];                                          \
        t_ += (a2) * (r2)[j];                                          \
        t_ += (a3) * (r3)[j];                                          \
        (out)[j] = t_;                                                 \
    }

/* out[j] = sum_k val[k] T[ind[k] * stride + j] for j < b: the dot products of b stored rows with
   a sparse x when the rows are kept by feature (T: d rows of length stride >= b).  Each out[j]
   adds its products in x's index order from 0, four features per sweep (REFSVM_ADD_FOUR_ROWS):
   the same IEEE operations in the same order as gather_dots' row-by-row sums
   (bitwise the same numbers), as vector adds along j. */
REFSVM_MULTIVERSION
static void refsvm_dots_by_feature(const double* T, Py_ssize_t stride, Py_ssize_t b,
                                   const int32_t* ind, const double* val, Py_ssize_t n, double* out) {
    Py_ssize_t j, k;
    for (j = 0; j < b; j++)
        out[j] = 0.0;
    for (k = 0; k + 4 <= n; k += 4) {
        const double a0 = val[k], a1 = val[k + 1], a2 = val[k + 2], a3 = val[k + 3];
        const double *r0 = T + (Py_ssize_t)ind[k] * stride, *r1 = T + (Py_ssize_t)ind[k + 1] * stride;
        const double *r2 = T + (Py_ssize_t)ind[k + 2] * stride, *r3 = T + (Py_ssize_t)ind[k + 3] * stride;
        REFSVM_ADD_FOUR_ROWS(out, b, j, a0, r0, a1, r1, a2, r2, a3, r3);
    }
    for (; k < n; k++) {
        const double a0 = val[k];
        const double* r0 = T + (Py_ssize_t)ind[k] * stride;
        for (j = 0; j < b; j++)
            out[j] += a0 * r0[j];
    }
}

/* ---- 5. the FOGD / NOGD feature map ---- */
/* refsvm_sincos_block: z[2j], z[2j+1] = scale sin(p[j]), scale cos(p[j]) for j < D, with
 * branch-free double arithmetic the compiler vectorises.  Cody-Waite reduction x = k pi/2 + r
 * with pi/2 in three parts (fdlibm's pio2_1 / pio2_2 / pio2_2t: the first has 33 significant
 * bits, so k pio2_1 is exact for |k| < 2^20), then fdlibm's minimax polynomials for sin and cos
 * on |r| <= pi/4 (__kernel_sin / __kernel_cos of Sun's fdlibm 5.3, polynomial error < 2^-58),
 * the quadrant k mod 4 chosen by multiplying with exact 0/1 factors.  Rounding to the nearest
 * integer uses the 1.5 * 2^52 addition (exact for |x| < 2^50; kept by the compiler: no
 * -ffast-math).  For |x| <= REFSVM_SINCOS_LIMIT = 2^18 the absolute error of each value is
 * below 4.5e-16 (two units in the last place of 1) against glibc (tests/ogd/test_sincos.py); a
 * block with a larger |x| or a NaN is computed by libm's sin and cos instead.  p holds the D
 * phases (not changed).
 *
 * refsvm_axpy: y += a x.  refsvm_phases: the feature map's p = U x over the nonzero inputs.
 *
 * All are compiled three times on x86-64 Linux with GCC (REFSVM_CLONES: AVX-512F, AVX2 and the
 * baseline SSE2) and the loader picks the one the CPU runs; each element's arithmetic is the same
 * IEEE operations whatever the vector width.
 */
#define REFSVM_SINCOS_LIMIT 262144.0


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
 * four rows per sweep over p (REFSVM_ADD_FOUR_ROWS): bitwise the sums of one axpy per nonzero x_k.
 * nz is scratch for d indices. */
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
        REFSVM_ADD_FOUR_ROWS(p, D, j, a, ra, b, rb, c, rc, e, re);
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

/* ---- 6. the sign flags of merge candidates ---- */
/* The sign flags of merge candidates (c_maintain_merge's pruned scans): flags[j] = 1 if
   !(am0 a[j] < 0) and lk[j] > -inf, else 0; returns the number of j with am0 a[j] >= 0.  Only
   comparisons of the same IEEE products: every clone gives the same integers.  Compiled for
   AVX2 and the baseline (GCC function multi-versioning; REFSVM_MULTIVERSION above). */
static REFSVM_MULTIVERSION Py_ssize_t refsvm_sign_flags(const double* a, const double* lk,
                                                        double am0, Py_ssize_t n,
                                                        Py_ssize_t* flags) {
    Py_ssize_t j, same = 0;
    for (j = 0; j < n; j++) {
        double p = am0 * a[j];
        flags[j] = (Py_ssize_t)(!(p < 0.0)) & (Py_ssize_t)(lk[j] > -INFINITY);
        same += (Py_ssize_t)(p >= 0.0);
    }
    return same;
}

/* ---- 7. the Projectron's triangular solves ---- */
/* M: the Projectron's factor buffer (online.pyx _factor_buffer; rows of ld doubles) with L in its
 * lower triangle and L' in its strict upper triangle, so row j holds row j of L left of the
 * diagonal and column j of L right of it; dinv[j] = 1 / L[j][j].
 *
 * refsvm_forward_solve: z <- L^{-1} z (b entries), column-oriented: z_j = z[j] dinv[j], then
 * z[l] -= L[l][j] z_j for l > j, so each z[l] gets its products for j = 0, 1, .. in that order.
 * refsvm_backward_solve: d <- L^{-T} d, column-oriented for L' (row j of L): d_j = d[j] dinv[j],
 * then d[l] -= L[j][l] d_j for l < j, j from the last down; returns ||d||_1 of the result (each
 * entry added when final, from the last).
 *
 * Both go by blocks of four columns: the block's triangle one column at a time, then the entries
 * outside the block in one sweep of four columns (REFSVM_ADD_FOUR_ROWS with a = -z_j: y + (-z) x
 * is y - z x exactly), one load and store of each entry per four columns; every entry gets the same
 * IEEE operations in the same order as in the one-column-at-a-time loops, in every clone. */
REFSVM_CLONES
static void refsvm_forward_solve(const double *M, ptrdiff_t ld, const double *dinv, double *z, ptrdiff_t b)
{
    ptrdiff_t j0, j1, j, l;
    for (j0 = 0; j0 < b; j0 = j1) {
        j1 = j0 + 4 < b ? j0 + 4 : b;
        for (j = j0; j < j1; j++) {
            const double *col = M + j * ld;
            const double zj = z[j] * dinv[j];
            z[j] = zj;
            for (l = j + 1; l < j1; l++)
                z[l] -= col[l] * zj;
        }
        if (j1 < b) {                                   /* then the block has four columns */
            double *out = z + j1;
            const double a0 = -z[j0], a1 = -z[j0 + 1], a2 = -z[j0 + 2], a3 = -z[j0 + 3];
            const double *r0 = M + j0 * ld + j1, *r1 = r0 + ld, *r2 = r1 + ld, *r3 = r2 + ld;
            REFSVM_ADD_FOUR_ROWS(out, b - j1, l, a0, r0, a1, r1, a2, r2, a3, r3);
        }
    }
}

REFSVM_CLONES
static double refsvm_backward_solve(const double *M, ptrdiff_t ld, const double *dinv, double *d, ptrdiff_t b)
{
    ptrdiff_t j0, j1, j, l;
    double l1 = 0.0;
    for (j1 = b; j1 > 0; j1 = j0) {
        j0 = j1 - 1 - (j1 - 1) % 4;                     /* the block [j0, j1), j0 a multiple of 4 */
        for (j = j1 - 1; j >= j0; j--) {
            const double *row = M + j * ld;
            const double dj = d[j] * dinv[j];
            d[j] = dj;
            l1 += fabs(dj);
            for (l = j0; l < j; l++)
                d[l] -= row[l] * dj;
        }
        if (j0 > 0 && j1 - j0 == 4) {
            const double a0 = -d[j0 + 3], a1 = -d[j0 + 2], a2 = -d[j0 + 1], a3 = -d[j0];
            const double *r3 = M + j0 * ld, *r2 = r3 + ld, *r1 = r2 + ld, *r0 = r1 + ld;
            REFSVM_ADD_FOUR_ROWS(d, j0, l, a0, r0, a1, r1, a2, r2, a3, r3);
        } else if (j0 > 0) {                            /* the last rows' partial block */
            for (j = j1 - 1; j >= j0; j--) {
                const double *row = M + j * ld;
                const double dj = d[j];
                for (l = 0; l < j0; l++)
                    d[l] -= row[l] * dj;
            }
        }
    }
    return l1;
}

#endif
