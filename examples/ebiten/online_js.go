//go:build js

package main

import "errors"

// defaultLead is -lead's default (netplay.Lead, which the browser build
// does not link).
const defaultLead = 4

// errNoNetwork: the browser build has no network play yet, since the
// replication client does not build for js/wasm.
var errNoNetwork = errors.New("network play is not in the browser build")

func serveHeadless(options) error { return errNoNetwork }

func playOnline(options) error { return errNoNetwork }
