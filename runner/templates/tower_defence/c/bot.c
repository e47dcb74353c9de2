/* Tower Defence starter (td-runner new): reads textMap.txt, writes command.txt, once per round.
 *
 * The plan: energy buildings in the two back columns until there are 6, then attack buildings from the
 * front. Every move is checked first (own half, free cell, enough energy), so no command is refused.
 * Standard C only; build with ./build.sh (or make). Your strategy goes in choose(). */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

enum { WIDTH = 8, HEIGHT = 8, ATTACK = 1, ENERGY = 2 };

static int energy = -1;             /* our energy: player A's block comes first in the map, that is us */
static int taken[WIDTH][HEIGHT];    /* 1 where one of our buildings stands (finished or not) */
static int energy_buildings = 0;

static void read_map(void) {
    char line[4096];
    FILE *in = fopen("textMap.txt", "r");
    if (in == NULL) return;
    while (fgets(line, sizeof line, in) != NULL) {
        int x, y;
        if (strncmp(line, "Energy :", 8) == 0 && energy < 0) {
            energy = atoi(line + 8);
        } else if (line[0] == '[' && strstr(line, "] A|") != NULL && sscanf(line, "[%d,%d]", &x, &y) == 2) {
            if (x >= 0 && x < WIDTH && y >= 0 && y < HEIGHT) taken[x][y] = 1;
            if (strstr(line, "|ENERGY|") != NULL) energy_buildings++;
        }
    }
    fclose(in);
}

/* Writes "x,y,type" into out, or leaves it empty to do nothing. */
static void choose(char *out, size_t size) {
    int kind = energy_buildings < 6 ? ENERGY : ATTACK;
    int price = kind == ENERGY ? 20 : 30;
    out[0] = '\0';
    if (energy < price) return; /* wait for the energy */
    for (int i = 0; i < WIDTH; i++) {
        int x = kind == ENERGY ? i : WIDTH - 1 - i; /* energy from the back, attack from the front */
        if (kind == ENERGY && x > 1) break;
        if (kind == ATTACK && x < 2) break;
        for (int y = 0; y < HEIGHT; y++) {
            if (!taken[x][y]) {
                snprintf(out, size, "%d,%d,%d", x, y, kind);
                return;
            }
        }
    }
}

int main(void) {
    char command[64];
    read_map();
    choose(command, sizeof command);
    FILE *out = fopen("command.txt", "w");
    if (out == NULL) return 1;
    fputs(command, out);
    fclose(out);
    return 0;
}
