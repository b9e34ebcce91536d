module github.com/tessera-ecs/tessera/examples/ebiten

go 1.26

require (
	github.com/hajimehoshi/ebiten/v2 v2.8.8
	github.com/tessera-ecs/tessera v0.0.0
	github.com/tessera-ecs/tessera/net v0.0.0
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/ebitengine/gomobile v0.0.0-20240911145611-4856209ac325 // indirect
	github.com/ebitengine/hideconsole v1.0.0 // indirect
	github.com/ebitengine/purego v0.8.0 // indirect
	github.com/jezek/xgb v1.1.1 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/sys v0.25.0 // indirect
)

replace (
	github.com/tessera-ecs/tessera => ../..
	github.com/tessera-ecs/tessera/net => ../../net
)
