/* Lanes starter (td-runner new): reads state.json, writes commands.txt, once per turn.
 *
 * The plan: a missile tower on row 2 while money allows, and every owned rifle sent down one column of the
 * opponent's lane (a new column each turn). Costs are checked before a line is written, so the file is
 * never rejected. state.json is read with a few string searches, enough for the numbers used here (no
 * JSON library needed). Standard C only; build with ./build.sh (or make). Your strategy goes in orders(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The integer after "key": found at or after `from`; `missing` when there is none. */
static long json_int(const char *from, const char *key, long missing) {
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *at = from == NULL ? NULL : strstr(from, quoted);
    if (at == NULL) return missing;
    at += strlen(quoted);
    while (*at == ' ' || *at == '\n' || *at == '\r' || *at == '\t' || *at == ':') at++;
    return strtol(at, NULL, 10);
}

static char *read_file(const char *path) {
    FILE *in = fopen(path, "rb");
    if (in == NULL) return NULL;
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    size_t got = fread(text, 1, (size_t)size, in);
    text[got] = '\0';
    fclose(in);
    return text;
}

/* Whether one of our towers stands at (col, row): a search in the "me" object's tower list. */
static int tower_at(const char *me_towers, const char *end, int col, int row) {
    const char *at = me_towers;
    while ((at = strstr(at, "\"col\"")) != NULL && at < end) {
        if (json_int(at, "col", -1) == col && json_int(at, "row", -1) == row) return 1;
        at += 5;
    }
    return 0;
}

static void orders(const char *state, FILE *out) {
    const char *me = strstr(state, "\"me\"");
    const char *opponent = strstr(state, "\"opponent\"");
    if (me == NULL || opponent == NULL) return;
    long turn = json_int(state, "turn", 0);
    long money = json_int(me, "money", 0);
    long rifles = json_int(strstr(me, "\"soldiers\""), "rifle", 0);
    const char *towers = strstr(me, "\"towers\"");
    for (int col = 1; col <= 5; col++) {
        if (money >= 3 + 2 && towers != NULL && !tower_at(towers, opponent, col, 2)) {
            fprintf(out, "BUILD missile %d 2\n", col); /* a tower, and still enough for a rifle */
            money -= 3;
            break;
        }
    }
    if (money >= 2) {
        fprintf(out, "RECRUIT rifle\n");
        rifles++;
    }
    if (rifles > 0) fprintf(out, "DEPLOY rifle 1 %ld %ld\n", turn % 7, rifles);
}

int main(void) {
    char *state = read_file("state.json");
    if (state == NULL) return 1;
    FILE *out = fopen("commands.txt.tmp", "w");
    if (out == NULL) return 1;
    fprintf(out, "TURN %ld\n", json_int(state, "turn", 0));
    orders(state, out);
    fprintf(out, "END\n");
    fclose(out);
    rename("commands.txt.tmp", "commands.txt"); /* the runner never sees half a file */
    free(state);
    return 0;
}
