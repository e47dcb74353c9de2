// A Tower Defence bot with no go.mod: a plain package main, as Go bots were written in 2018.
package main

import (
	"encoding/json"
	"os"
)

type state struct {
	GameDetails struct {
		Round int `json:"round"`
	} `json:"gameDetails"`
	Players []struct {
		PlayerType string `json:"playerType"`
		Energy     int    `json:"energy"`
	} `json:"players"`
}

func main() {
	var s state
	data, err := os.ReadFile("state.json")
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	command := ""
	for _, player := range s.Players {
		if err == nil && player.PlayerType == "A" && player.Energy >= 20 { // "A" is always the bot itself
			command = "0,2,2"
		}
	}
	os.WriteFile("command.txt", []byte(command), 0o644)
}
