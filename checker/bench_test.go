package checker

import (
	"context"
	"testing"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Each checker over all 5,478 3x3 positions.
func BenchmarkCheckers3x3(b *testing.B) {
	e, err := enumerate.Game(context.Background(), rules.Classic(game.Default), 1)
	if err != nil {
		b.Fatal(err)
	}
	boards := make([][]game.Cell, e.Len())
	for i := range boards {
		boards[i] = e.Board(i).Marks(game.Default, make([]game.Cell, 9))
	}
	for _, name := range Names {
		c, err := New(name, game.Default)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for i, cells := range boards {
					if c.Status(cells) != e.Status[i] {
						b.Fatalf("%s disagrees on %v", name, cells)
					}
				}
			}
		})
	}
}
