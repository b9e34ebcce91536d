package inspect

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
)

// takeBody reads r's whole body, which must fit in the MaxBody limit and
// arrive before the read deadline ServeHTTP set, and puts it back as r's
// Body, read from memory: the handlers and the world's jobs never wait for
// a client. A body over the limit (a chunked one: one that declares its
// length is refused before) answers 413, a late one 408, a malformed one
// 400. rw must be the server's own writer, which MaxBytesReader tells to
// close the connection once the limit is hit.
func (in *Inspector) takeBody(rw http.ResponseWriter, r *http.Request) *httpError {
	data, err := io.ReadAll(http.MaxBytesReader(rw, r.Body, in.maxBody))
	var over *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &over):
		return tooLarge(over.Limit)
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return errorf(http.StatusRequestTimeout, "request body not received within %v (inspect.BodyTimeout)", in.bodyTimeout)
	case err != nil:
		return badRequest("reading the body: %v", err)
	}
	r.Body = io.NopCloser(bytes.NewReader(data))
	return nil
}

func tooLarge(limit int64) *httpError {
	return errorf(http.StatusRequestEntityTooLarge, "request body larger than %d bytes (inspect.MaxBody)", limit)
}

// refuse answers a request refused before its body was read, or while it
// was. On HTTP/1 a connection whose body may be left unread is closed
// after the answer: otherwise the server would read the rest of the body,
// up to 256 KiB, before it sent the answer, to find the next request.
// What it still reads on closing is bounded by the read deadline
// ServeHTTP set.
func refuse(rw http.ResponseWriter, r *http.Request, hasBody bool, err *httpError) {
	if hasBody && r.ProtoMajor == 1 {
		rw.Header().Set("Connection", "close")
	}
	writeError(rw, err)
}
