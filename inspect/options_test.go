package inspect_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
)

func TestBadOptionsPanic(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"Token with a newline", func() { inspect.Token("tok\n") }, "control character"},
		{"Token with a space", func() { inspect.Token("a b") }, "space"},
		{"empty Token", func() { inspect.Token("") }, "empty token"},
		{"Wait(0)", func() { inspect.Wait(0) }, "positive"},
		{"MaxBody(-1)", func() { inspect.MaxBody(-1) }, "at least 1 byte"},
		{"BodyTimeout(0)", func() { inspect.BodyTimeout(0) }, "positive"},
		{"WriteTimeout(-1)", func() { inspect.WriteTimeout(-1) }, "positive"},
		{"HeaderTimeout(0)", func() { inspect.HeaderTimeout(0) }, "positive"},
		{"IdleTimeout(0)", func() { inspect.IdleTimeout(0) }, "positive"},
		{"Run(NaN)", func() { inspect.New(ecs.NewWorld()).Run(context.Background(), math.NaN(), func() {}) }, "NaN ticks per second"},
		{"Run(-1)", func() { inspect.New(ecs.NewWorld()).Run(context.Background(), -1, func() {}) }, "-1 ticks per second"},
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), c.want) {
					t.Errorf("%s: panic %v, want %q", c.name, p, c.want)
				}
			}()
			c.f()
		}()
	}
}
