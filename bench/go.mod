module github.com/tessera-ecs/tessera/bench

go 1.26

require (
	github.com/akmonengine/volt v1.7.0
	github.com/marioolofo/go-gameengine-ecs v0.9.0
	github.com/mlange-42/arche v0.15.3
	github.com/mlange-42/ark v0.8.3
	github.com/schollz/progressbar/v3 v3.18.0
	github.com/tessera-ecs/tessera v0.0.0-00010101000000-000000000000
	github.com/unitoftime/ecs v0.0.3
	github.com/yohamta/donburi v1.15.8
	gonum.org/v1/plot v0.16.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.1.0 // indirect
	codeberg.org/go-pdf/fpdf v0.10.0 // indirect
	git.sr.ht/~sbinet/gg v0.6.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/campoy/embedmd v1.0.0 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/unitoftime/cod v0.0.0-20240909130117-f553b1d09d22 // indirect
	golang.org/x/image v0.25.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/term v0.28.0 // indirect
	golang.org/x/text v0.23.0 // indirect
)

replace github.com/tessera-ecs/tessera => ../
