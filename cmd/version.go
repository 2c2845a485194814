package cmd

import (
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
)

// NewCmdVersion builds version.
func NewCmdVersion(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the tool's version",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			v := report.Version{Tool: "tateti-lab", Version: Version, Go: runtime.Version()}
			return show(GameOptions{IO: f.IO, JSON: f.game.json}, v, true, v.Text)
		},
	}
}

// completing reports whether args ask Cobra for completions, as the
// shell's completion script does: only then are flag values offered
// (completeFlagValues), which takes longer than building the commands.
func completing(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// completeFlagValues offers values for the flags that take a few known ones
// to shell completion (tateti-lab completion bash, zsh, fish, powershell).
func completeFlagValues(root *cobra.Command) {
	values := map[string][]string{
		"format":      append(slices.Clone(export.Formats), strings.Join(export.Formats, ",")),
		"move-format": protocol.MoveFormats,
		"cells":       {"X,O,.", "0,1,-1", "1,2,0"},
		"results":     {"X,O,draw,open", "0,1,2,3", "1,2,0,-1"},
		"check":       {"value", "value,depth", "value,best", "value,depth,best"},
	}
	_ = root.RegisterFlagCompletionFunc("game", fixed(rules.GameNames()...))
	_ = root.RegisterFlagCompletionFunc("size", fixed("3x3", "3x4", "4x3", "4x4", "4x5", "5x4", "5x5", "3x6", "4x6", "6x3"))
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		local := c.LocalNonPersistentFlags() // a new set at each call: once a command
		for name, vals := range values {
			if local.Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, fixed(vals...))
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// fixed completes with vals, and no file names.
func fixed(vals ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}
