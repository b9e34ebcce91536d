package inspect

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// httpError is an answer other than success: a status and a message for
// the JSON body {"error": message}.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) *httpError {
	return &httpError{status, fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) *httpError {
	return errorf(http.StatusBadRequest, format, args...)
}

// writeJSON answers status with v as JSON.
func writeJSON(rw http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		writeError(rw, errorf(http.StatusInternalServerError, "encoding the answer: %v", err))
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	rw.Header().Set("Cache-Control", "no-store")
	rw.WriteHeader(status)
	rw.Write(append(body, '\n'))
}

// writeError answers e's status with {"error": e's message}.
func writeError(rw http.ResponseWriter, e *httpError) {
	body, _ := json.Marshal(map[string]string{"error": e.msg})
	rw.Header().Set("Content-Type", "application/json")
	rw.Header().Set("Cache-Control", "no-store")
	rw.WriteHeader(e.status)
	rw.Write(append(body, '\n'))
}
