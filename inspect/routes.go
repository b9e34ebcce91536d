package inspect

import (
	"embed"
	"io/fs"
	"maps"
	"net/http"
	"slices"
	"strings"
)

//go:embed web
var webFiles embed.FS

// routes builds the inspector's mux. Every API route answers a method it
// does not support with 405 and a JSON error, and an unknown /api/ path
// with 404.
func (in *Inspector) routes() {
	web, _ := fs.Sub(webFiles, "web")
	in.static = http.StripPrefix("/static/", http.FileServerFS(web))
	m := http.NewServeMux()
	in.mux = m
	m.HandleFunc("/{$}", func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeError(rw, errorf(http.StatusMethodNotAllowed, "method %s not allowed on /", r.Method))
			return
		}
		rw.Header().Set("Cache-Control", "no-store")
		http.ServeFileFS(rw, r, web, "index.html")
	})
	m.HandleFunc("/static/", func(rw http.ResponseWriter, r *http.Request) {
		if !fs.ValidPath(strings.TrimPrefix(r.URL.Path, "/static/")) {
			// The file server answers 500 for a name fs.FS refuses (bad
			// UTF-8, say): no such file is the truer answer.
			writeError(rw, errorf(http.StatusNotFound, "no such file: %q", r.URL.Path))
			return
		}
		in.static.ServeHTTP(rw, r)
	})
	m.HandleFunc("/api/", func(rw http.ResponseWriter, r *http.Request) {
		writeError(rw, errorf(http.StatusNotFound, "no such endpoint: %s (see the inspect package documentation)", r.URL.Path))
	})
	m.HandleFunc("/api/stream", methods{http.MethodGet: in.stream}.serve)
	read := func(fn func() (any, *httpError)) http.HandlerFunc {
		return in.answer(http.StatusOK, func(*http.Request) (any, *httpError) { return fn() })
	}
	m.HandleFunc("/api/world", methods{http.MethodGet: read(in.summary)}.serve)
	m.HandleFunc("/api/components", methods{http.MethodGet: read(in.componentList)}.serve)
	m.HandleFunc("/api/tables", methods{http.MethodGet: read(in.tableList)}.serve)
	m.HandleFunc("/api/resources", methods{http.MethodGet: read(in.resourceList)}.serve)
	m.HandleFunc("/api/systems", methods{http.MethodGet: read(in.systems)}.serve)
	m.HandleFunc("/api/entities", methods{
		http.MethodGet: func(rw http.ResponseWriter, r *http.Request) {
			offset, limit, err := pageParams(r)
			if err != nil {
				writeError(rw, err)
				return
			}
			in.answer(http.StatusOK, func(r *http.Request) (any, *httpError) { return in.entityList(r, offset, limit) })(rw, r)
		},
		http.MethodPost: in.withBody(http.StatusCreated, func(_ *http.Request, body []byte) (any, *httpError) { return in.spawn(body) }),
	}.serve)
	m.HandleFunc("/api/entities/{id}", methods{
		http.MethodGet: in.answer(http.StatusOK, func(r *http.Request) (any, *httpError) {
			e, err := parseEntity(in.w, r.PathValue("id"))
			if err != nil {
				return nil, err
			}
			return in.entity(e), nil
		}),
		http.MethodDelete: in.answer(http.StatusOK, func(r *http.Request) (any, *httpError) { return in.despawn(r.PathValue("id")) }),
	}.serve)
	m.HandleFunc("/api/entities/{id}/components/{name...}", methods{
		http.MethodPut: in.withBody(http.StatusOK, func(r *http.Request, body []byte) (any, *httpError) {
			return in.setComponent(r.PathValue("id"), r.PathValue("name"), body)
		}),
		http.MethodPatch: in.patchHandler(),
		http.MethodDelete: in.answer(http.StatusOK, func(r *http.Request) (any, *httpError) {
			return in.removeComponent(r.PathValue("id"), r.PathValue("name"))
		}),
	}.serve)
	m.HandleFunc("/api/systems/{name}", methods{
		http.MethodPut: in.withBody(http.StatusOK, func(r *http.Request, body []byte) (any, *httpError) {
			return in.setSystem(r.PathValue("name"), body)
		}),
	}.serve)
	m.HandleFunc("/api/loop/{verb}", methods{
		http.MethodPost: in.answer(http.StatusOK, func(r *http.Request) (any, *httpError) { return in.control(r.PathValue("verb")) }),
	}.serve)
	in.relationRoutes(m)
	in.timeTravelRoutes(m)
}

// methods dispatches a route by method: 405 with an Allow header for the
// others.
type methods map[string]http.HandlerFunc

func (ms methods) serve(rw http.ResponseWriter, r *http.Request) {
	h, ok := ms[r.Method]
	if !ok && r.Method == http.MethodHead {
		h, ok = ms[http.MethodGet]
	}
	if !ok {
		for _, m := range slices.Sorted(maps.Keys(ms)) {
			rw.Header().Add("Allow", m)
		}
		writeError(rw, errorf(http.StatusMethodNotAllowed, "method %s not allowed on %s", r.Method, r.URL.Path))
		return
	}
	h(rw, r)
}

// answer runs fn on the world's goroutine (Inspector.do) and writes its
// result as JSON with status ok, or its error. Time travel (travel) may
// answer a read as of a past tick, or refuse a write.
func (in *Inspector) answer(ok int, fn func(*http.Request) (any, *httpError)) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		out, err := in.do(r.Context(), func() (any, *httpError) { return in.travel(r, func() (any, *httpError) { return fn(r) }) })
		if err != nil {
			writeError(rw, err)
			return
		}
		writeJSON(rw, ok, out)
	}
}

// withBody reads the request's body on the handler's goroutine, then
// answers as answer does.
func (in *Inspector) withBody(ok int, fn func(*http.Request, []byte) (any, *httpError)) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		body, err := readBody(r)
		if err != nil {
			writeError(rw, err)
			return
		}
		in.answer(ok, func(r *http.Request) (any, *httpError) { return fn(r, body) })(rw, r)
	}
}
