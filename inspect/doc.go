// Package inspect looks inside a running Tessera world from a browser.
package inspect
