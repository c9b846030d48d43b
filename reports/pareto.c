/* The error vs throughput Pareto front, one definition for every report
 * (choose's ranking text and the HTML plots of choose and gemm). */
#include <math.h>

#include "reports/reports_internal.h"

void rep_pareto_front(const double *speed, const double *error, size_t n, bool *front)
{
    for (size_t i = 0; i < n; i++) {
        front[i] = isfinite(speed[i]) && isfinite(error[i]);
        for (size_t j = 0; j < n && front[i]; j++)
            if (j != i && isfinite(speed[j]) && isfinite(error[j]) && speed[j] >= speed[i] &&
                error[j] <= error[i] && (speed[j] > speed[i] || error[j] < error[i]))
                front[i] = false;
    }
}
