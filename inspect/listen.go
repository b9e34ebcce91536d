package inspect

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// DefaultAddr is the address Listen uses for "": the loopback interface,
// port 7777.
const DefaultAddr = "127.0.0.1:7777"

// Server is a running HTTP server of an [Inspector], from [Inspector.Listen].
type Server struct {
	// URL is the page's address, such as "http://127.0.0.1:7777/".
	URL string
	srv *http.Server
}

// Listen serves in on addr ("host:port"; "" means [DefaultAddr], port 0
// picks a free port) in a goroutine of its own and returns at once. The
// host must be a loopback address or "localhost" unless in was made with
// [AllowRemote]: an inspector can change the world, so it is not exposed
// to the network by accident. Returns the error of the listen otherwise.
func (in *Inspector) Listen(addr string) (*Server, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("inspect: Listen: address %q: %v", addr, err)
	}
	if !in.remote && !in.hostAllowed(host) {
		return nil, fmt.Errorf("inspect: Listen: %q is not a loopback address; listening on other interfaces needs the AllowRemote option", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("inspect: Listen: %w", err)
	}
	srv := &http.Server{Handler: in, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	go srv.Serve(ln) // returns when Close or Shutdown closes the listener
	return &Server{URL: "http://" + ln.Addr().String() + "/", srv: srv}, nil
}

// Close stops the server and closes its connections, streams included.
func (s *Server) Close() error { return s.srv.Close() }

// Shutdown stops the server gracefully: see [http.Server.Shutdown].
func (s *Server) Shutdown(ctx context.Context) error { return s.srv.Shutdown(ctx) }
