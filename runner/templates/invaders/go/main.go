// Invaders starter (td-runner new): one process for the whole match, either side.
//
// Each turn one JSON line arrives on stdin and one line must go back on stdout, at once: the answer is
// written straight to os.Stdout (unbuffered in Go); if you wrap stdout in a bufio.Writer, Flush it after
// every line, or the answer never reaches the runner and the bot is disqualified for a time-out. Print
// debugging on stderr, never on stdout.
//
// The plan: the Defender builds turrets from cell 99 down while it has the gold; the Invader spawns an
// invader with the whole boost cap on hit points whenever it can pay for it. Standard library only
// (encoding/json); build with ./build.sh (go build). Your strategy goes in answer.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

type request struct {
	Turn  int    `json:"turn"`
	Side  string `json:"side"`
	State struct {
		DefenderGold    int               `json:"defenderGold"`
		DefenderLife    int               `json:"defenderLife"`
		InvaderGold     int               `json:"invaderGold"`
		InvaderBoostMax int               `json:"invaderBoostMax"`
		TowerSlots      []json.RawMessage `json:"towerSlots"` // "null" where the cell is empty
	} `json:"state"`
}

// answer returns this turn's action as a JSON text ("null": no action).
func answer(r request) string {
	s := r.State
	if r.Side == "defender" {
		if s.DefenderGold < 10 {
			return "null"
		}
		for pos := 99; pos >= 10 && pos < len(s.TowerSlots); pos-- {
			if string(s.TowerSlots[pos]) == "null" {
				return fmt.Sprintf(`{"action":"build","type":"turret","pos":%d}`, pos)
			}
		}
		return "null"
	}
	if s.InvaderGold >= 10+s.InvaderBoostMax {
		return fmt.Sprintf(`{"hp":%d}`, s.InvaderBoostMax)
	}
	return "null"
}

func main() {
	reader := bufio.NewReaderSize(os.Stdin, 1<<16)
	for { // memory between turns can live in variables here: the process stays for the whole match
		line, err := reader.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return
		}
		var r request
		if json.Unmarshal(line, &r) != nil {
			fmt.Println("null")
			continue
		}
		fmt.Println(answer(r))
	}
}
