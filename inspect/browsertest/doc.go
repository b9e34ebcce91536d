// Package browsertest drives the inspector's page (package inspect) in a
// real browser: headless Chromium, through the Chrome DevTools Protocol
// with chromedp. It is a module of its own so that Tessera's root module
// keeps no dependency outside the standard library; it holds tests only.
//
// Run it from this directory with
//
//	go test ./...
//
// It needs Chromium (Debian's chromium package) or Chrome on the PATH, or
// its path in $CHROMIUM. Without one it skips, saying so, unless $CI is
// set: under CI a missing browser fails the test. TESSERA_SCREENSHOT=FILE
// keeps the screenshot it takes of the page (a PNG).
package browsertest
