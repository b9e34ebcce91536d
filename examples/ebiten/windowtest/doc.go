// Package windowtest runs the arena game (the command in the directory
// above) in a virtual X display and checks its picture and its checksum.
// It is a package of its own because a package that imports Ebitengine
// cannot even start its tests without a display.
package windowtest
