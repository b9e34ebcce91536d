module github.com/tessera-ecs/tessera/cmd/tessera

go 1.26

require (
	github.com/schollz/progressbar/v3 v3.18.0
	github.com/tessera-ecs/tessera v0.0.0
	github.com/tessera-ecs/tessera/net v0.0.0
	golang.org/x/term v0.28.0
	golang.org/x/tools v0.39.0
	gonum.org/v1/plot v0.16.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.1.0 // indirect
	codeberg.org/go-pdf/fpdf v0.10.0 // indirect
	git.sr.ht/~sbinet/gg v0.6.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/campoy/embedmd v1.0.0 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/image v0.25.0 // indirect
	golang.org/x/mod v0.30.0 // indirect
	golang.org/x/sync v0.18.0 // indirect
	golang.org/x/sys v0.38.0 // indirect
	golang.org/x/text v0.23.0 // indirect
)

replace (
	github.com/tessera-ecs/tessera => ../..
	github.com/tessera-ecs/tessera/net => ../../net
)
