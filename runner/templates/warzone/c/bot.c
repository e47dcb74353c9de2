/* Warzone starter (td-runner new): reads state.txt, writes orders.txt, once per turn.
 *
 * The plan: deploy the whole pool on our strongest territory that borders someone else's, then attack its
 * weakest foreign neighbour with everything there when we outnumber it. Every order names territories we
 * own and neighbours of them, so none is rejected. state.txt is plain lines of fields (no JSON needed).
 * Standard C only; build with ./build.sh (or make). Your strategy goes in orders(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long id, armies;
    char owner[16];
    char neighbours[4096]; /* ids joined by commas, or "-" */
} Territory;

static char seat[16];
static long pool;
static Territory *territories;
static int count, capacity;

static Territory *find(long id) {
    for (int i = 0; i < count; i++)
        if (territories[i].id == id) return &territories[i];
    return NULL;
}

static void read_state(void) {
    static char line[8192];
    FILE *in = fopen("state.txt", "r");
    if (in == NULL) return;
    while (fgets(line, sizeof line, in) != NULL) {
        if (sscanf(line, "you %15s", seat) == 1 || sscanf(line, "pool %ld", &pool) == 1) continue;
        if (strncmp(line, "territory ", 10) == 0) {
            if (count == capacity) {
                capacity = capacity ? 2 * capacity : 64;
                territories = realloc(territories, (size_t)capacity * sizeof *territories);
            }
            Territory *t = &territories[count];
            long continent;
            if (sscanf(line, "territory %ld %15s %ld %ld %4095s", &t->id, t->owner, &t->armies, &continent,
                       t->neighbours) == 5)
                count++;
        }
    }
    fclose(in);
}

/* A neighbour of t that someone else owns: the first one, or with `weakest` the one with fewest armies. */
static Territory *foreign_neighbour(const Territory *t, int weakest) {
    Territory *best = NULL;
    const char *at = t->neighbours;
    while (*at != '\0' && *at != '-') {
        Territory *n = find(strtol(at, (char **)&at, 10));
        if (n != NULL && strcmp(n->owner, seat) != 0) {
            if (!weakest) return n;
            if (best == NULL || n->armies < best->armies) best = n;
        }
        if (*at == ',') at++;
    }
    return best;
}

static void orders(FILE *out) {
    Territory *base = NULL;
    for (int i = 0; i < count; i++) {
        Territory *t = &territories[i];
        if (strcmp(t->owner, seat) == 0 && foreign_neighbour(t, 0) != NULL && (base == NULL || t->armies > base->armies))
            base = t;
    }
    if (base == NULL) return;
    long armies = base->armies + pool;
    if (pool > 0) fprintf(out, "deploy %ld %ld\n", pool, base->id);
    Territory *target = foreign_neighbour(base, 1);
    if (armies > 2 * target->armies + 1) fprintf(out, "advance %ld %ld %ld\n", armies, base->id, target->id);
}

int main(void) {
    read_state();
    FILE *out = fopen("orders.txt", "w");
    if (out == NULL) return 1;
    orders(out);
    fclose(out);
    free(territories);
    return 0;
}
