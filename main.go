// Command tateti-lab is a lab for tic-tac-toe and small m,n,k games: it
// enumerates, solves, verifies and exports every reachable position.
package main

import (
	"os"

	"github.com/tateti-lab/tateti-lab/cmd"
)

func main() {
	os.Exit(cmd.Execute())
}
