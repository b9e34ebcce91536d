package inspect

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
)

// DefaultAddr is the address Listen uses for "": the loopback interface,
// port 7777.
const DefaultAddr = "127.0.0.1:7777"

// Server is a running HTTP server of an [Inspector], from [Inspector.Listen].
type Server struct {
	// URL is the page's address, such as "http://127.0.0.1:7777/".
	URL  string
	in   *Inspector
	srv  *http.Server
	stop context.CancelFunc // ends the requests' contexts
}

// Listen serves in on addr ("host:port"; "" means [DefaultAddr], port 0
// picks a free port) in a goroutine of its own and returns at once. The
// host must be a loopback address or "localhost" unless in was made with
// [AllowRemote]: an inspector can change the world, so it is not exposed
// to the network by accident. The server closes a connection whose
// request headers take longer than [HeaderTimeout] and a keep-alive
// connection idle for [IdleTimeout]; bodies and answers are bounded by
// the handler itself ([BodyTimeout], [WriteTimeout]). Returns the error
// of the listen otherwise.
func (in *Inspector) Listen(addr string) (*Server, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("inspect: Listen: address %q: %v", addr, err)
	}
	if !in.remote && !in.policy.HostAllowed(host) {
		return nil, fmt.Errorf("inspect: Listen: %q is not a loopback address; listening on other interfaces needs the AllowRemote option", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("inspect: Listen: %w", err)
	}
	// Requests' contexts end when the server stops, so that streams,
	// which last as long as their client, end with it.
	base, stop := context.WithCancel(context.Background())
	// No ReadTimeout or WriteTimeout: the handler sets the body's read
	// deadline and each answer's write deadline itself (BodyTimeout,
	// WriteTimeout), so that the stream, which lasts as long as its
	// client, is not cut.
	srv := &http.Server{Handler: in, ReadHeaderTimeout: in.headerTimeout, IdleTimeout: in.idleTimeout,
		BaseContext: func(net.Listener) context.Context { return base }}
	srv.RegisterOnShutdown(stop)
	go srv.Serve(ln) // returns when Close or Shutdown closes the listener
	return &Server{URL: "http://" + urlHost(ln.Addr().(*net.TCPAddr), in.policy.Hosts) + "/", in: in, srv: srv, stop: stop}, nil
}

// urlHost is the host and port of the page's address: the listen address,
// or for a wildcard one (0.0.0.0, ::) the first name AllowRemote gave, or
// else the loopback address, which the inspector always answers.
func urlHost(a *net.TCPAddr, hosts []string) string {
	port := strconv.Itoa(a.Port)
	switch {
	case !a.IP.IsUnspecified():
		return net.JoinHostPort(a.IP.String(), port)
	case len(hosts) > 0:
		return net.JoinHostPort(hosts[0], port)
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// Close stops the server and closes its connections, streams included;
// requests waiting for the world answer 503. In [Locker] mode it also ends
// the inspector's own goroutine, without waiting for it (see
// [Inspector.Close]); the inspector stays open, and a request from another
// server starts the goroutine again. Returns the error of
// [http.Server.Close].
func (s *Server) Close() error {
	s.stop()
	err := s.srv.Close()
	s.in.endLockerLoop()
	return err
}

// Shutdown stops the server gracefully (see [http.Server.Shutdown]):
// requests in flight finish (those still waiting for the world answer
// 503), and streams end. Then, in [Locker] mode, it ends the inspector's
// own goroutine as Close does. Returns the error of
// [http.Server.Shutdown].
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	s.in.endLockerLoop()
	return err
}
