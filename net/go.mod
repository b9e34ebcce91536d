module github.com/tessera-ecs/tessera/net

go 1.26

require github.com/coder/websocket v1.8.15

replace github.com/tessera-ecs/tessera => ..
