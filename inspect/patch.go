package inspect

import (
	"encoding/json"
	"maps"
	"mime"
	"net/http"
	"slices"
)

// Media types a PATCH body may be sent as: a JSON merge patch (RFC 7386),
// under its own type or plain JSON, which is read the same.
const (
	mergePatchType = "application/merge-patch+json"
	jsonType       = "application/json"
)

// patchHandler answers PATCH /api/entities/{id}/components/{name}: a JSON
// merge patch of the component's value. A body of another media type is
// refused with 415 and an Accept-Patch header, before the request goes to
// the world.
func (in *Inspector) patchHandler() http.HandlerFunc {
	apply := in.withBody(http.StatusOK, func(r *http.Request, body []byte) (any, *httpError) {
		return in.patchComponent(r.PathValue("id"), r.PathValue("name"), body)
	})
	return func(rw http.ResponseWriter, r *http.Request) {
		if err := checkPatchType(r.Header.Get("Content-Type")); err != nil {
			rw.Header().Set("Accept-Patch", mergePatchType)
			writeError(rw, err)
			return
		}
		apply(rw, r)
	}
}

// checkPatchType accepts a merge patch's media type, plain JSON, or none
// (curl -d aside, clients that send no type mean JSON); any other is 415.
func checkPatchType(contentType string) *httpError {
	if contentType == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err == nil && (mt == mergePatchType || mt == jsonType) {
		return nil
	}
	return errorf(http.StatusUnsupportedMediaType,
		"Content-Type %q: a PATCH takes a JSON merge patch (RFC 7386) as %s or %s; JSON Patch (RFC 6902) is not supported",
		contentType, mergePatchType, jsonType)
}

// patchComponent applies the JSON merge patch body to the entity's
// component, through a command buffer (OnSet fires): members the patch
// leaves out keep their values, null zeroes a struct field or removes a
// map entry, objects merge recursively, and anything else (arrays
// included) replaces the member whole. The patched value is decoded in
// full before anything changes, so a failed patch changes nothing.
func (in *Inspector) patchComponent(id, name string, body []byte) (any, *httpError) {
	e, c, err := in.entityComponent(id, name)
	if err != nil {
		return nil, err
	}
	cur, has := in.w.Reflect().Value(e, c.Type)
	if !has {
		return nil, errorf(http.StatusNotFound, "entity %v has no %s: PUT adds a component", e, c.Name)
	}
	patch, err := parseDocument(c, body)
	if err != nil {
		return nil, err
	}
	if patch == nil {
		return nil, badRequest("component %v: a merge patch of null would leave no value (DELETE removes a component)", c.GoType)
	}
	if p := checkValue(c.GoType, patch, ""); p != nil {
		return nil, p.answer(c)
	}
	curJSON, reason := marshalValue(cur)
	if reason != "" {
		return nil, errorf(http.StatusConflict, "component %v: its value cannot be written as JSON (%s), so it cannot be patched; PUT replaces it whole", c.GoType, reason)
	}
	target, err := parseDocument(c, curJSON)
	if err != nil {
		return nil, errorf(http.StatusConflict, "component %v: its JSON cannot be read back (%s), so it cannot be patched; PUT replaces it whole", c.GoType, err.msg)
	}
	merged, merr := json.Marshal(mergePatch(target, patch))
	if merr != nil {
		return nil, errorf(http.StatusInternalServerError, "component %v: writing the patched value: %v", c.GoType, merr)
	}
	v, err := in.decode(c, merged)
	if err != nil {
		return nil, err
	}
	cmds := in.w.NewCommands()
	cmds.SetValue(e, v)
	in.w.Apply(cmds)
	return in.afterWrite(e), nil
}

// mergePatch applies patch to target, both in parseDocument's form, as
// RFC 7386 section 2 does, and returns the result; it may reuse target's
// maps.
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for _, k := range slices.Sorted(maps.Keys(p)) {
		v := p[k]
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = mergePatch(t[k], v)
	}
	return t
}
