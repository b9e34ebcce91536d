// Command arenaserver is the arena game's server without Ebitengine, for
// a machine with no display: the same server as the game's -serve, which
// on Linux needs an X display to start at all (Ebitengine opens it when
// the program starts).
//
//	TESSERA_NET_TOKEN=secret go run ./examples/ebiten/arenaserver -serve :7800 -hosts gamebox.lan
//
// Flags: -serve ADDR, -token (default $TESSERA_NET_TOKEN), -hosts and
// -origins (comma-separated), -seed, -rocks, -workers: as the game's.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/tessera-ecs/tessera/examples/ebiten/netplay"
)

func main() {
	var cfg netplay.ServerConfig
	addr := flag.String("serve", "127.0.0.1:7800", "the address to listen at (:7800 for every interface)")
	flag.StringVar(&cfg.Token, "token", "", "the token the server and its clients share (default $TESSERA_NET_TOKEN)")
	hosts := flag.String("hosts", "", "the comma-separated names or addresses other machines reach the server by (besides loopback and -serve's own host)")
	origins := flag.String("origins", "", "the comma-separated web page origins (https://host:port) whose scripts may connect")
	flag.Uint64Var(&cfg.Game.Seed, "seed", 1, "seed of the rocks and sparks")
	flag.IntVar(&cfg.Game.Rocks, "rocks", 2000, "rocks in the arena")
	flag.IntVar(&cfg.Game.Workers, "workers", 0, "scheduler workers (0: one per CPU)")
	flag.Parse()
	if cfg.Token == "" {
		cfg.Token = os.Getenv("TESSERA_NET_TOKEN")
	}
	if cfg.Game.Rocks < 0 {
		log.Fatal("want -rocks of at least 0")
	}
	cfg.Hosts, cfg.Origins = netplay.SplitList(*hosts), netplay.SplitList(*origins)
	if err := netplay.ServeCommand(*addr, cfg); err != nil {
		log.Fatal(err)
	}
}
