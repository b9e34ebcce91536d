package netcode

import "time"

// Close codes a server ends a connection with (WebSocket application
// codes, 4000-4999). The reason sent with each is a constant: nothing a
// client sent is echoed.
const (
	CloseBadHello     = 4001 // no hello in time, not a Tessera hello, or another protocol version
	CloseSchema       = 4002 // the client's rules differ from the server's
	CloseToken        = 4003 // the token is wrong
	CloseFull         = 4004 // the server has MaxClients clients
	CloseStalled      = 4005 // no ack for StallTimeout
	CloseRateExceeded = 4006 // too many messages or bytes, a full inbound queue, inputs far ahead
)

// Defaults of Options.
const (
	DefaultTickRate         = 20
	DefaultBudget           = 64 << 10
	DefaultMaxClients       = 64
	DefaultMaxInFlight      = 10
	DefaultStallTimeout     = 5 * time.Second
	DefaultHandshakeTimeout = 2 * time.Second
	DefaultChecksumEvery    = 20
	DefaultMaxEntities      = 1 << 22
	// MaxClientMessage is the largest message a client may send, in
	// bytes; a larger one closes the connection with 1009.
	MaxClientMessage = 4 << 10
	// maxServerMessage bounds what a client accepts from a server.
	maxServerMessage = 64 << 20
)

// Options configure a Server. The zero value of each field means its
// default.
type Options struct {
	// Token is the secret every client presents in its hello; required.
	Token string
	// Hosts are the Host names accepted besides localhost and the
	// loopback addresses: the names remote clients reach the server by.
	Hosts []string
	// Origins are the page origins (scheme://host[:port]) whose scripts
	// may connect, besides the server's own.
	Origins []string
	// TickRate is the server's ticks per second, told to clients and used
	// for the message rate limit. Default DefaultTickRate.
	TickRate int
	// Budget is the bytes per client per State the encoder aims at: what
	// does not fit waits, by priority. Default DefaultBudget; negative
	// means no limit. Despawns and leaves are sent whatever the budget.
	Budget int
	// MaxClients bounds the connected clients; more are refused with 503
	// before the upgrade, or closed with CloseFull. Default
	// DefaultMaxClients.
	MaxClients int
	// MaxInFlight is how many States a client may have unacknowledged
	// before the server stops sending it more; the next one covers every
	// tick missed. Default DefaultMaxInFlight.
	MaxInFlight int
	// ResyncAfter is how many ticks a client may go without a State
	// before its next one is a reset, rebuilding its view from nothing.
	// Default 2 seconds of ticks.
	ResyncAfter int
	// StallTimeout closes a client that acknowledges nothing for this
	// long while States wait for it (CloseStalled). Default
	// DefaultStallTimeout.
	StallTimeout time.Duration
	// HandshakeTimeout closes a connection whose hello does not arrive
	// in time (CloseBadHello). Default DefaultHandshakeTimeout.
	HandshakeTimeout time.Duration
	// ChecksumEvery is how often, in ticks, a State carries the view
	// checksum (when nothing relevant waits), so a client can tell its
	// world from the server's. Default DefaultChecksumEvery; 1 checks
	// every tick.
	ChecksumEvery int
	// Relevancy picks the entities each client sees; nil means every
	// replicated entity.
	Relevancy Relevancy
	// MaxEntities bounds the entity indices the server replicates and
	// its clients accept. Default DefaultMaxEntities.
	MaxEntities int
}

func (o *Options) setDefaults() {
	def := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	def(&o.TickRate, DefaultTickRate)
	def(&o.Budget, DefaultBudget)
	def(&o.MaxClients, DefaultMaxClients)
	def(&o.MaxInFlight, DefaultMaxInFlight)
	def(&o.ResyncAfter, 2*o.TickRate)
	def(&o.ChecksumEvery, DefaultChecksumEvery)
	def(&o.MaxEntities, DefaultMaxEntities)
	if o.StallTimeout == 0 {
		o.StallTimeout = DefaultStallTimeout
	}
	if o.HandshakeTimeout == 0 {
		o.HandshakeTimeout = DefaultHandshakeTimeout
	}
}
