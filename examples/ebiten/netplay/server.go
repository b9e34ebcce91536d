package netplay

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/examples/ebiten/arena"
	"github.com/tessera-ecs/tessera/net/netcode"
)

// ServerConfig sets up a Server.
type ServerConfig struct {
	Game    arena.Config // the arena: seed, rocks, workers (NoRewind is set)
	Token   string       // the secret clients present; required
	Hosts   []string     // Host names remote clients reach the server by, besides loopback ones
	Origins []string     // page origins whose scripts may connect (a browser build's page)
}

// Server runs the arena for the clients that join. The world is the
// goroutine's that calls Step (or Serve, which calls it TickRate times a
// second); Net, the netcode.Server, is the http.Handler clients connect
// to, from any goroutine.
type Server struct {
	game   *arena.Game
	net    *netcode.Server
	inputs *ecs.EventReader[netcode.Input[arena.Input]]
	ins    []arena.PlayerInput
	fresh  *ecs.Query1[arena.Pos] // entities with a place not yet Replicated, emitters aside
	marks  *ecs.Map[netcode.Replicated]
	board  ecs.Entity // holds the score, replicated
	scores *ecs.Map[arena.Score]
	seats  [MaxShips]netcode.ClientID // the player in each seat, 0 when free
	batch  []ecs.Entity
}

// seatAt is where each seat's ship appears.
var seatAt = [MaxShips]arena.Pos{{X: arena.Width / 3, Y: arena.Height / 2}, {X: 2 * arena.Width / 3, Y: arena.Height / 2}}

// NewServer builds the arena with no ship and its netcode.Server.
// Errors: no token, or rules that do not build.
func NewServer(cfg ServerConfig) (*Server, error) {
	rules, err := Rules()
	if err != nil {
		return nil, err
	}
	cfg.Game.NoRewind = true
	g := arena.NewEmpty(cfg.Game)
	ns, err := netcode.NewServer(g.W, rules, netcode.Options{Token: cfg.Token, Hosts: cfg.Hosts, Origins: cfg.Origins, TickRate: TickRate})
	if err != nil {
		g.Close()
		return nil, err
	}
	w := g.W
	s := &Server{game: g, net: ns, inputs: ecs.EventsOf[netcode.Input[arena.Input]](w).NewReader(),
		fresh: ecs.NewQuery1[arena.Pos](w, ecs.Without(ecs.C[netcode.Replicated](), ecs.C[arena.Emitter]())),
		marks: ecs.NewMap[netcode.Replicated](w), scores: ecs.NewMap[arena.Score](w)}
	s.board = ecs.NewMap2[arena.Score, netcode.Replicated](w).Spawn(g.Score(), netcode.Replicated{})
	return s, nil
}

// Step runs one tick: it gives ships to the clients that joined (while a
// seat is free) and takes them from those that left, runs the arena with
// each client's input for the tick as its player's, marks what the tick
// made Replicated, and sends the clients their States (netcode's Update,
// which also reads their inputs for the next tick).
func (s *Server) Step() {
	s.ins = s.ins[:0]
	for _, in := range s.inputs.Read() {
		s.ins = append(s.ins, arena.PlayerInput{Player: uint32(in.Client), Input: in.Value})
	}
	s.seat()
	s.game.StepPlayers(s.ins...)
	s.mark()
	s.net.Update()
}

// seat frees the seats of clients that left, with their ships, and gives
// the free seats to the clients without one, in joining order.
func (s *Server) seat() {
	clients := s.net.Clients()
	for i, id := range s.seats {
		if id != 0 && !slices.Contains(clients, id) {
			s.game.RemoveShip(uint32(id))
			s.seats[i] = 0
		}
	}
	for _, id := range clients {
		if slices.Contains(s.seats[:], id) {
			continue
		}
		i := slices.Index(s.seats[:], 0)
		if i < 0 {
			return
		}
		s.seats[i] = id
		s.game.SpawnShip(uint32(id), seatAt[i])
	}
}

// mark gives Replicated to the entities the tick made, and copies the
// score onto the board.
func (s *Server) mark() {
	s.batch = s.batch[:0]
	for ch := range s.fresh.Chunks() {
		s.batch = append(s.batch, ch.Entities...)
	}
	s.marks.AddEntities(s.batch, netcode.Replicated{})
	*s.scores.Get(s.board) = s.game.Score()
}

// Settle stops the game: it runs netcode's Update alone, every 10 ms,
// until every joined client has acknowledged a State sent after the game
// stood still, with nothing left for it to be sent, so that each holds
// the server's last values; or until ctx is done. It reports whether
// they all did. Call it on the world's goroutine, before Close, to let
// the clients see how the game ended.
func (s *Server) Settle(ctx context.Context) bool {
	still := s.net.Tick() + 1
	for {
		s.net.Update()
		if s.settled(still) {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// settled reports whether every client acknowledged a State of tick
// still or later, and the State before the last one queued, with nothing
// pending: a client that acked the State before the last has applied
// every value the server holds.
func (s *Server) settled(still uint64) bool {
	for _, id := range s.net.Clients() {
		info, ok := s.net.Client(id)
		if !ok || info.Pending != 0 || info.Acked+1 < s.net.Tick() || info.Acked < still {
			return false
		}
	}
	return true
}

// Game returns the arena the server runs.
func (s *Server) Game() *arena.Game { return s.game }

// Net returns the netcode.Server: the http.Handler to mount (at
// netcode.Path), and the clients' and bytes' accounts.
func (s *Server) Net() *netcode.Server { return s.net }

// Players returns the clients that have a ship, in seat order.
func (s *Server) Players() []netcode.ClientID {
	var ids []netcode.ClientID
	for _, id := range s.seats {
		if id != 0 {
			ids = append(ids, id)
		}
	}
	return ids
}

// Close ends every connection and stops the game's workers.
func (s *Server) Close() {
	s.net.Close()
	s.game.Close()
}

// Serve listens on addr, serves the clients at netcode.Path and steps
// the game TickRate times a second until ctx is done; then it closes the
// listener and every connection (Close is still the caller's). ready, if
// not nil, gets the URL clients on this machine dial once the server
// listens; logf, if not nil, a line every 5 s. Errors: the address cannot
// be listened on, or the HTTP server failed.
func (s *Server) Serve(ctx context.Context, addr string, ready func(url string), logf func(format string, args ...any)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(netcode.Path, s.net)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	failed := make(chan error, 1)
	go func() { failed <- hs.Serve(ln) }()
	defer hs.Close()
	if ready != nil {
		ready(localURL(ln.Addr()))
	}
	tick := time.NewTicker(time.Second / TickRate)
	defer tick.Stop()
	report := time.NewTicker(5 * time.Second)
	defer report.Stop()
	var sent uint64
	for {
		select {
		case <-ctx.Done():
			s.net.Close()
			return nil
		case err := <-failed:
			return err
		case <-tick.C:
			s.Step()
		case <-report.C:
			if logf != nil {
				st := s.net.Stats()
				logf("tick %d: %d clients, players %v, %.1f KB/s out, %d late inputs", st.Tick, st.Clients, s.Players(),
					float64(st.BytesSent-sent)/5/1000, st.LateInputs)
				sent = st.BytesSent
			}
		}
	}
}

// localURL is the URL a client on this machine dials for a server
// listening at a: the loopback address when a is an unspecified one.
func localURL(a net.Addr) string {
	host := a.String()
	if t, ok := a.(*net.TCPAddr); ok && t.IP.IsUnspecified() {
		host = net.JoinHostPort("127.0.0.1", fmt.Sprint(t.Port))
	}
	return "ws://" + host + netcode.Path
}

// ListenHosts returns the host of a listen address, for
// ServerConfig.Hosts, when clients may reach the server by it: a name or
// an address other than an unspecified one (0.0.0.0, ::, or none, which
// listen everywhere: the names they are reached by go in -hosts).
func ListenHosts(addr string) []string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		return nil
	}
	return []string{host}
}

// SplitList splits a comma-separated flag value, dropping empty items.
func SplitList(s string) []string {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// errNoToken is the error of a server or client without a token.
var errNoToken = errors.New("no token: pass -token or set TESSERA_NET_TOKEN (the server and its clients share it)")

// CheckToken returns an error saying how to give a token when token is
// empty.
func CheckToken(token string) error {
	if token == "" {
		return errNoToken
	}
	return nil
}

// ServeCommand is what a server command does: it checks the token,
// builds a Server from cfg, serves it on addr (adding addr's host to
// cfg.Hosts, see ListenHosts) until the process is interrupted (Ctrl-C,
// SIGTERM), logging the address clients dial and a line every 5 s, and
// closes it. Errors: no token, or the address cannot be listened on.
func ServeCommand(addr string, cfg ServerConfig) error {
	if err := CheckToken(cfg.Token); err != nil {
		return err
	}
	cfg.Hosts = append(cfg.Hosts, ListenHosts(addr)...)
	s, err := NewServer(cfg)
	if err != nil {
		return err
	}
	defer s.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ready := func(url string) {
		log.Printf("arena server at %s (%d ticks a second, %d ships); Host names other machines may use: %s",
			url, TickRate, MaxShips, strings.Join(append([]string{"loopback"}, cfg.Hosts...), ", "))
	}
	return s.Serve(ctx, addr, ready, log.Printf)
}
