// Tower Defence starter (td-runner new): reads textMap.txt, writes command.txt, once per round.
//
// The plan: energy buildings in the two back columns until there are 6, then attack buildings from the
// front. Every move is checked first (own half, free cell, enough energy), so no command is refused.
// Standard library only; build with ./build.sh (go build). Your strategy goes in choose.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

const (
	width, height  = 8, 8
	attack, energy = 1, 2
)

type view struct {
	energy          int
	taken           [width][height]bool // where one of our buildings stands (finished or not)
	energyBuildings int
}

func readMap(path string) view {
	v := view{energy: -1}
	file, err := os.Open(path)
	if err != nil {
		return v
	}
	defer file.Close()
	scanner := bufio.NewScanner(file)
	scanner.Buffer(make([]byte, 1<<16), 1<<20)
	for scanner.Scan() {
		line := scanner.Text()
		if strings.HasPrefix(line, "Energy :") && v.energy < 0 { // player A's block comes first: that is us
			v.energy, _ = strconv.Atoi(strings.TrimSpace(line[len("Energy :"):]))
		} else if strings.HasPrefix(line, "[") && strings.Contains(line, "] A|") {
			var x, y int
			if _, err := fmt.Sscanf(line, "[%d,%d]", &x, &y); err == nil && x >= 0 && x < width && y >= 0 && y < height {
				v.taken[x][y] = true
			}
			if strings.Contains(line, "|ENERGY|") {
				v.energyBuildings++
			}
		}
	}
	return v
}

// choose returns "x,y,type", or "" to do nothing.
func choose(v view) string {
	kind, price, columns := energy, 20, []int{0, 1}
	if v.energyBuildings >= 6 {
		kind, price, columns = attack, 30, []int{7, 6, 5, 4, 3, 2}
	}
	if v.energy < price {
		return "" // wait for the energy
	}
	for _, x := range columns {
		for y := 0; y < height; y++ {
			if !v.taken[x][y] {
				return fmt.Sprintf("%d,%d,%d", x, y, kind)
			}
		}
	}
	return ""
}

func main() {
	command := choose(readMap("textMap.txt"))
	if err := os.WriteFile("command.txt", []byte(command), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
