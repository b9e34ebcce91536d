//go:build js

package netcode

import "github.com/coder/websocket"

// dialOptions are the WebSocket dial options of a wasm client: the
// browser's WebSocket sets its own headers (Origin among them), so
// ClientOptions.Header is not sent.
func dialOptions(ClientOptions) *websocket.DialOptions { return &websocket.DialOptions{} }
