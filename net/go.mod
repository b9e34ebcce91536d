module github.com/tessera-ecs/tessera/net

go 1.26

require (
	github.com/coder/websocket v1.8.15
	github.com/tessera-ecs/tessera v0.0.0
)

replace github.com/tessera-ecs/tessera => ..
