package netcode

import _ "github.com/coder/websocket"
