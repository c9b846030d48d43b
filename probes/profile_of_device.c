/* The model profile of a GPU (probes/probes.h tc_profile_of_device): the
 * profile whose [about] names that device, found among the profiles beside
 * the binary. A structure recorded on one GPU is predicted with the
 * instruction model audited on that GPU, never with another's. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probes/probes.h"

/* The value of "device = ..." in file's [about] section, into out ("" when none). */
static void about_device(const char *file, char *out, size_t len)
{
    *out = '\0';
    FILE *f = fopen(file, "r");
    if (!f)
        return;
    char line[512];
    bool about = false;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n#")] = '\0';
        if (line[0] == '[') {
            if (about)
                break;   /* [about] ended */
            about = !strncmp(line, "[about]", 7);
            continue;
        }
        char *eq = strchr(line, '=');
        if (!about || !eq)
            continue;
        char *k = line, *v = eq + 1;
        *eq = '\0';
        while (*k == ' ' || *k == '\t')
            k++;
        k[strcspn(k, " \t")] = '\0';
        while (*v == ' ' || *v == '\t')
            v++;
        for (char *e = v + strlen(v); e > v && (e[-1] == ' ' || e[-1] == '\t');)
            *--e = '\0';
        if (!strcmp(k, "device")) {
            snprintf(out, len, "%s", v);
            break;
        }
    }
    fclose(f);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_profile(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 8 && !strcmp(e->d_name + n - 8, ".profile");
}

bool tc_profile_of_device(const char *device, char *path, size_t len)
{
    char dir[PATH_MAX];
    if (!device || !*device || !tc_data_path("oracle/profiles", dir, sizeof dir))
        return false;
    struct dirent **names;
    int n = scandir(dir, &names, is_profile, by_name);
    if (n < 0)
        return false;
    bool found = false;
    for (int i = 0; i < n; i++) {
        char file[PATH_MAX + 256], dev[256];
        snprintf(file, sizeof file, "%s/%s", dir, names[i]->d_name);
        about_device(file, dev, sizeof dev);
        if (!found && *dev && !strcasecmp(dev, device)) {
            found = snprintf(path, len, "%s", file) < (int)len;
        }
        free(names[i]);
    }
    free(names);
    return found;
}
