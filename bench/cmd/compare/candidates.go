package main

import (
	"github.com/tessera-ecs/tessera/bench/floor"
	"github.com/tessera-ecs/tessera/bench/peers/arche"
	"github.com/tessera-ecs/tessera/bench/peers/ark"
	"github.com/tessera-ecs/tessera/bench/peers/donburi"
	"github.com/tessera-ecs/tessera/bench/peers/ggecs"
	"github.com/tessera-ecs/tessera/bench/peers/uot"
	"github.com/tessera-ecs/tessera/bench/peers/volt"
	"github.com/tessera-ecs/tessera/bench/suite"
	"github.com/tessera-ecs/tessera/bench/tessera"
)

// candidates lists every candidate in report order: the floor, Tessera's
// forms, then the peers.
func candidates() []*suite.Candidate {
	out := []*suite.Candidate{floor.Candidate()}
	for _, list := range [][]*suite.Candidate{tessera.Candidates(), ark.Candidates(), arche.Candidates(),
		donburi.Candidates(), uot.Candidates(), volt.Candidates(), ggecs.Candidates()} {
		out = append(out, list...)
	}
	return out
}
