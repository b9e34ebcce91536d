package inspect

import (
	"net/http"
	"time"
)

// timedWriter bounds the writing of one answer: at its first byte or
// header it sets the connection's write deadline timeout ahead, so a
// client that stops reading cannot hold its connection and the handler's
// goroutine forever, while the time the request waited for the loop does
// not count. The deadline stays set until the next request on the
// connection lifts it (ServeHTTP): the server flushes the answer's last
// bytes after the handler returns, and that flush must be bounded too.
// The stream sets deadlines of its own, one per event (stream.go).
type timedWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController // of the server's writer
	timeout time.Duration
	armed   bool
}

// arm sets the write deadline at the answer's first header or byte, once.
func (w *timedWriter) arm() {
	if !w.armed {
		w.armed = true
		_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout)) // unsupported: no deadline
	}
}

// WriteHeader arms the deadline, then writes the status as
// http.ResponseWriter does.
func (w *timedWriter) WriteHeader(status int) {
	w.arm()
	w.ResponseWriter.WriteHeader(status)
}

// Write arms the deadline, then writes p as http.ResponseWriter does; past
// the deadline it returns the connection's timeout error.
func (w *timedWriter) Write(p []byte) (int, error) {
	w.arm()
	return w.ResponseWriter.Write(p)
}

// Unwrap gives http.ResponseController the server's writer, for Flush and
// the deadlines.
func (w *timedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
