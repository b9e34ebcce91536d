//go:build !race

package netcode

const raceEnabled = false
