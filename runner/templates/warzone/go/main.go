// Warzone starter (td-runner new): reads state.txt, writes orders.txt, once per turn.
//
// The plan: deploy the whole pool on our strongest territory that borders someone else's, then attack its
// weakest foreign neighbour with everything there when we outnumber it. Every order names territories we
// own and neighbours of them, so none is rejected. Standard library only; build with ./build.sh (go
// build). Your strategy goes in orders.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

type territory struct {
	owner      string
	armies     int
	neighbours []int
}

type view struct {
	seat        string
	pool        int
	ids         []int // in file order (ascending)
	territories map[int]territory
}

func readState(path string) view {
	v := view{territories: map[int]territory{}}
	file, err := os.Open(path)
	if err != nil {
		return v
	}
	defer file.Close()
	scanner := bufio.NewScanner(file)
	scanner.Buffer(make([]byte, 1<<16), 1<<24)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		switch {
		case len(fields) >= 2 && fields[0] == "you":
			v.seat = fields[1]
		case len(fields) >= 2 && fields[0] == "pool":
			v.pool, _ = strconv.Atoi(fields[1])
		case len(fields) >= 6 && fields[0] == "territory":
			id, _ := strconv.Atoi(fields[1])
			armies, _ := strconv.Atoi(fields[3])
			t := territory{owner: fields[2], armies: armies}
			if fields[5] != "-" {
				for _, n := range strings.Split(fields[5], ",") {
					number, _ := strconv.Atoi(n)
					t.neighbours = append(t.neighbours, number)
				}
			}
			v.ids = append(v.ids, id)
			v.territories[id] = t
		}
	}
	return v
}

// weakestForeign returns the neighbour of id that someone else owns with the fewest armies, or -1.
func weakestForeign(v view, id int) int {
	best := -1
	for _, n := range v.territories[id].neighbours {
		t, ok := v.territories[n]
		if ok && t.owner != v.seat && (best < 0 || t.armies < v.territories[best].armies) {
			best = n
		}
	}
	return best
}

// orders returns this turn's order lines.
func orders(v view) []string {
	base := -1
	for _, id := range v.ids {
		t := v.territories[id]
		if t.owner == v.seat && weakestForeign(v, id) >= 0 && (base < 0 || t.armies > v.territories[base].armies) {
			base = id
		}
	}
	if base < 0 {
		return nil
	}
	var lines []string
	if v.pool > 0 {
		lines = append(lines, fmt.Sprintf("deploy %d %d", v.pool, base))
	}
	armies := v.territories[base].armies + v.pool
	target := weakestForeign(v, base)
	if armies > 2*v.territories[target].armies+1 {
		lines = append(lines, fmt.Sprintf("advance %d %d %d", armies, base, target))
	}
	return lines
}

func main() {
	var text strings.Builder
	for _, line := range orders(readState("state.txt")) {
		text.WriteString(line + "\n")
	}
	if err := os.WriteFile("orders.txt", []byte(text.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
