//go:build !js

package netcode

import "github.com/coder/websocket"

// dialOptions are the WebSocket dial options of a native client: the
// upgrade request carries opts.Header.
func dialOptions(opts ClientOptions) *websocket.DialOptions {
	return &websocket.DialOptions{HTTPHeader: opts.Header}
}
