// Lanes starter (td-runner new): reads state.json, writes commands.txt, once per turn.
//
// The plan: a missile tower on row 2 while money allows, and every owned rifle sent down one column of the
// opponent's lane (a new column each turn). Costs are checked before a line is written, so the file is
// never rejected. Standard library only (encoding/json); build with ./build.sh (go build). Your strategy
// goes in orders.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type tower struct {
	Type string `json:"type"`
	Col  int    `json:"col"`
	Row  int    `json:"row"`
	HP   int    `json:"hp"`
}

// state holds the parts of state.json this bot reads; add fields as your strategy needs them.
type state struct {
	Turn int `json:"turn"`
	Me   struct {
		HP       int            `json:"hp"`
		Money    int            `json:"money"`
		Soldiers map[string]int `json:"soldiers"`
		Towers   []tower        `json:"towers"`
	} `json:"me"`
	Opponent struct {
		HP     int     `json:"hp"`
		Towers []tower `json:"towers"`
	} `json:"opponent"`
}

// orders returns this turn's command lines, between TURN and END.
func orders(s state) []string {
	var lines []string
	money := s.Me.Money
	built := map[[2]int]bool{}
	for _, t := range s.Me.Towers {
		built[[2]int{t.Col, t.Row}] = true
	}
	for col := 1; col <= 5; col++ {
		if money >= 3+2 && !built[[2]int{col, 2}] { // a tower, and still enough for a rifle
			lines = append(lines, fmt.Sprintf("BUILD missile %d 2", col))
			money -= 3
			break
		}
	}
	rifles := s.Me.Soldiers["rifle"]
	if money >= 2 {
		lines = append(lines, "RECRUIT rifle")
		rifles++
	}
	if rifles > 0 {
		lines = append(lines, fmt.Sprintf("DEPLOY rifle 1 %d %d", s.Turn%7, rifles))
	}
	return lines
}

func main() {
	data, err := os.ReadFile("state.json")
	var s state
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	lines := append([]string{fmt.Sprintf("TURN %d", s.Turn)}, orders(s)...)
	text := strings.Join(append(lines, "END"), "\n") + "\n"
	err = os.WriteFile("commands.txt.tmp", []byte(text), 0o644)
	if err == nil {
		err = os.Rename("commands.txt.tmp", "commands.txt") // the runner never sees half a file
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
