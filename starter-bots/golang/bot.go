// Tower Defence starter bot (Go, standard library only).
//
// Every round the runner writes `state.json` into this folder, starts the bot with the folder as its
// working directory, and reads the first line of `command.txt`:
//
//	x,y,buildingType     0 defence, 1 attack, 2 energy, 3 deconstruct, 4 tesla, 5 iron curtain
//	(empty file)         do nothing this round
//
// You always see yourself as player "A" on the left: your half is x = 0..7, the enemy's x = 8..15.
// A command the engine rejects wastes the round, so every move below is checked first (canBuild,
// canUseIronCurtain). Put your own strategy in chooseMove.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

const (
	Defense     = 0
	Attack      = 1
	Energy      = 2
	Deconstruct = 3
	Tesla       = 4
	IronCurtain = 5

	maxTeslas = 2 // engine rule; not part of the state file

	energyBuildingsWanted   = 8
	curtainMissileThreshold = 4
	teslaReserve            = 150 // energy to keep on top of the tower's price so it can fire
)

var typeNames = map[string]int{"DEFENSE": Defense, "ATTACK": Attack, "ENERGY": Energy, "TESLA": Tesla}

// The subset of state.json (spec 7.1) this bot reads; encoding/json ignores the other fields.
type State struct {
	GameDetails struct {
		MapWidth         int            `json:"mapWidth"`
		MapHeight        int            `json:"mapHeight"`
		BuildingPrices   map[string]int `json:"buildingPrices"`
		IronCurtainStats struct {
			Price int `json:"price"`
		} `json:"ironCurtainStats"`
	} `json:"gameDetails"`
	Players []Player `json:"players"`
	GameMap [][]struct {
		Buildings []struct {
			X            int    `json:"x"`
			Y            int    `json:"y"`
			PlayerType   string `json:"playerType"`
			BuildingType string `json:"buildingType"`
		} `json:"buildings"`
		Missiles []struct {
			PlayerType string `json:"playerType"`
		} `json:"missiles"`
	} `json:"gameMap"`
}

type Player struct {
	PlayerType                string `json:"playerType"`
	Energy                    int    `json:"energy"`
	IronCurtainAvailable      bool   `json:"ironCurtainAvailable"`
	ActiveIronCurtainLifetime int    `json:"activeIronCurtainLifetime"`
}

type Building struct {
	X, Y  int
	Owner string
	Type  int
}

type Move struct{ X, Y, Type int }

// Game holds the parts of the state this bot uses, in the bot's own (always "A") view.
type Game struct {
	Width, Height, Half int
	Prices              map[int]int
	CurtainPrice        int
	Me                  Player
	Buildings           []Building
	EnemyMissiles       int
}

func newGame(s *State) *Game {
	g := &Game{
		Width:        s.GameDetails.MapWidth,
		Height:       s.GameDetails.MapHeight,
		Half:         s.GameDetails.MapWidth / 2,
		Prices:       map[int]int{},
		CurtainPrice: s.GameDetails.IronCurtainStats.Price,
	}
	for name, price := range s.GameDetails.BuildingPrices {
		g.Prices[typeNames[name]] = price
	}
	for _, p := range s.Players { // pick by label, never by index
		if p.PlayerType == "A" {
			g.Me = p
		}
	}
	for _, row := range s.GameMap {
		for _, cell := range row {
			for _, b := range cell.Buildings {
				g.Buildings = append(g.Buildings, Building{b.X, b.Y, b.PlayerType, typeNames[b.BuildingType]})
			}
			for _, m := range cell.Missiles {
				if m.PlayerType == "B" {
					g.EnemyMissiles++
				}
			}
		}
	}
	return g
}

// count returns how many buildings of kind `owner` has (in row y, or every row when y < 0);
// unfinished ones count.
func (g *Game) count(owner string, kind, y int) int {
	n := 0
	for _, b := range g.Buildings {
		if b.Owner == owner && b.Type == kind && (y < 0 || b.Y == y) {
			n++
		}
	}
	return n
}

// enemiesNearRow counts enemy buildings in rows y-1..y+1: what a tesla in row y can reach.
func (g *Game) enemiesNearRow(y int) int {
	n := 0
	for _, b := range g.Buildings {
		if b.Owner == "B" && b.Y >= y-1 && b.Y <= y+1 {
			n++
		}
	}
	return n
}

func (g *Game) isFree(x, y int) bool {
	for _, b := range g.Buildings {
		if b.X == x && b.Y == y {
			return false
		}
	}
	return true
}

// canBuild is true if the engine would accept building `kind` at (x, y) this round.
func (g *Game) canBuild(x, y, kind int) bool {
	if x < 0 || x >= g.Half || y < 0 || y >= g.Height { // only our own half
		return false
	}
	if !g.isFree(x, y) {
		return false
	}
	if kind == Tesla && g.count("A", Tesla, -1) >= maxTeslas {
		return false
	}
	return g.Me.Energy >= g.Prices[kind]
}

func (g *Game) canUseIronCurtain() bool {
	return g.Me.IronCurtainAvailable && g.Me.Energy >= g.CurtainPrice && g.Me.ActiveIronCurtainLifetime < 1
}

// firstFree returns the first free x in row y, scanning from the front (x = Half-1) or from the back
// (x = 0); -1 if the row is full.
func (g *Game) firstFree(y int, fromFront bool) int {
	for i := 0; i < g.Half; i++ {
		x := i
		if fromFront {
			x = g.Half - 1 - i
		}
		if g.isFree(x, y) {
			return x
		}
	}
	return -1
}

func (g *Game) rows() []int {
	rows := make([]int, g.Height)
	for y := range rows {
		rows[y] = y
	}
	return rows
}

// chooseMove returns the move to play, or nil to do nothing.
// A simple plan: shield, defend, grow the economy, then attack.
func chooseMove(g *Game) *Move {
	// 1. Many enemy missiles in flight: raise the iron curtain (blocks them at the middle for 6 rounds).
	if g.EnemyMissiles >= curtainMissileThreshold && g.canUseIronCurtain() {
		return &Move{0, 0, IronCurtain}
	}

	// 2. Put a defence wall at the front of every row where the enemy has an attack building.
	threatened := []int{}
	for _, y := range g.rows() {
		if g.count("B", Attack, y) > 0 && g.count("A", Defense, y) == 0 {
			threatened = append(threatened, y)
		}
	}
	sort.SliceStable(threatened, func(i, j int) bool { // most attackers first; ties keep row order
		return g.count("B", Attack, threatened[i]) > g.count("B", Attack, threatened[j])
	})
	for _, y := range threatened {
		if x := g.firstFree(y, true); x >= 0 {
			// Wait for the energy rather than spend it elsewhere: this row is under fire.
			if g.canBuild(x, y, Defense) {
				return &Move{x, y, Defense}
			}
			return nil
		}
	}

	// 3. Energy buildings pay for themselves after 7 rounds: build them early, at the back.
	if g.count("A", Energy, -1) < energyBuildingsWanted {
		for x := 0; x < g.Half; x++ {
			for _, y := range g.rows() {
				if g.canBuild(x, y, Energy) {
					return &Move{x, y, Energy}
				}
			}
		}
	}

	// 4. Rich? A tesla tower near the front hits up to 9 enemy buildings in a 3-row band.
	if g.Me.Energy >= g.Prices[Tesla]+teslaReserve {
		x := g.Half - 2
		byTargets := g.rows()
		sort.SliceStable(byTargets, func(i, j int) bool {
			return g.enemiesNearRow(byTargets[i]) > g.enemiesNearRow(byTargets[j])
		})
		for _, y := range byTargets {
			if g.canBuild(x, y, Tesla) {
				return &Move{x, y, Tesla}
			}
		}
	}

	// 5. Attack the row where the enemy has the fewest defences, from the back of our half.
	byDefences := g.rows()
	sort.SliceStable(byDefences, func(i, j int) bool {
		return g.count("B", Defense, byDefences[i]) < g.count("B", Defense, byDefences[j])
	})
	for _, y := range byDefences {
		if x := g.firstFree(y, false); x >= 0 {
			if g.canBuild(x, y, Attack) {
				return &Move{x, y, Attack}
			}
			return nil
		}
	}
	return nil
}

func main() {
	data, err := os.ReadFile("state.json")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot read state.json:", err)
		os.Exit(1)
	}
	var state State
	if err := json.Unmarshal(data, &state); err != nil {
		fmt.Fprintln(os.Stderr, "cannot parse state.json:", err)
		os.Exit(1)
	}
	command := ""
	if move := chooseMove(newGame(&state)); move != nil {
		command = fmt.Sprintf("%d,%d,%d", move.X, move.Y, move.Type)
	}
	if err := os.WriteFile("command.txt", []byte(command), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "cannot write command.txt:", err)
		os.Exit(1)
	}
}
