/* The audit's stage seconds and element counts (cli/audit_stages.h). */
#include "cli/audit_stages.h"

#include <stdio.h>
#include <string.h>

#define STAGES_FMT " random=%zu hunt=%zu(%s) s:fit=%.2f,random=%.2f,hunt=%.2f,crafted=%.2f,fit_gpu=%.2f"

static void add(audit_stages *s, size_t rnd, size_t hunt, bool gpu, double fit, double random, double hunt_s,
                double crafted, double fit_gpu)
{
    if (!s->instructions || rnd + hunt < s->least)
        s->least = rnd + hunt;
    s->instructions++;
    s->on_gpu += gpu;
    s->fit_s += fit;
    s->random_s += random;
    s->hunt_s += hunt_s;
    s->crafted_s += crafted;
    s->fit_gpu_s += fit_gpu;
}

void audit_stages_line(const audit_result *r, audit_stages *s, char *buf, size_t len)
{
    size_t rnd = 0, hunt = 0;
    for (int d = 0; d < VERIFY_NDIST_RANDOM; d++)
        rnd += r->proof.dist_n[d];
    for (int d = VERIFY_DIST_HUNT; d < VERIFY_NDIST; d++)
        hunt += r->proof.dist_n[d];
    const char *hp = verify_hunt_path(&r->proof);   /* "tile/gpu", "tile/host" or "family/host" */
    char path[16];
    snprintf(path, sizeof path, "%s/%s", hp ? "tile" : "family", hp ? hp : "host");
    snprintf(buf, len, STAGES_FMT, rnd, hunt, path, r->fit_s, r->proof.random_s, r->proof.hunt_s, r->proof.crafted_s,
             r->fit_count_s);
    add(s, rnd, hunt, hp && !strcmp(hp, "gpu"), r->fit_s, r->proof.random_s, r->proof.hunt_s, r->proof.crafted_s,
        r->fit_count_s);
}

bool audit_stages_parse(const char *line, size_t len, audit_stages *s)
{
    char text[1024], path[16];
    snprintf(text, sizeof text, "%.*s", (int)(len < sizeof text - 1 ? len : sizeof text - 1), line);
    const char *p = strstr(text, " random=");
    size_t rnd, hunt;
    double f, r, h, c, g = 0;
    if (!p || sscanf(p, " random=%zu hunt=%zu(%15[^)]) s:fit=%lf,random=%lf,hunt=%lf,crafted=%lf,fit_gpu=%lf", &rnd,
                     &hunt, path, &f, &r, &h, &c, &g) < 7)
        return false;
    add(s, rnd, hunt, !strcmp(path, "tile/gpu"), f, r, h, c, g);
    return true;
}

void audit_stages_print(const audit_stages *s, double timing_s, double wall_s)
{
    printf("# stages: %zu instructions fitted (%zu hunted on the GPU path), the fewest random + hunt elements "
           "%zu; seconds summed over them: fit %.1f (its counts on the GPU %.1f), proof random %.1f, proof hunt %.1f, "
           "crafted %.1f; timing %.1f s; wall %.1f s\n",
           s->instructions, s->on_gpu, s->least, s->fit_s, s->fit_gpu_s, s->random_s, s->hunt_s, s->crafted_s,
           timing_s, wall_s);
}
