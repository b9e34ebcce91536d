package main

import (
	"io"
	"strings"
	"testing"
)

func TestServeRefusesBadFlags(t *testing.T) {
	t.Setenv("TESSERA_NET_TOKEN", "")
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"-addr", "127.0.0.1:0"}, "no token: give -token or set $TESSERA_NET_TOKEN"},
		{[]string{"-token", "t", "-addr", "0.0.0.0:7800"}, "-addr 0.0.0.0:7800 is not a loopback address: listening on other interfaces needs -hosts"},
		{[]string{"-token", "t", "-addr", ":7800"}, "is not a loopback address"},
		{[]string{"-token", "t", "-addr", "7800"}, `-addr "7800"`},
		{[]string{"-token", "t", "-scenario", "predator"}, `scenario "predator" does not replicate: want game or particle`},
		{[]string{"-token", "t", "-relevancy", "near"}, "-relevancy near: want all or grid:R"},
		{[]string{"-token", "t", "-relevancy", "grid:0"}, "-relevancy grid:0: grid radius"},
		{[]string{"-token", "t", "-budget", "0"}, "-budget 0: want a size"},
		{[]string{"-token", "t", "-budget", "64GiB"}, "-budget 64GiB: want a size"},
		{[]string{"-token", "t", "-tps", "0"}, "-tps 0 out of range: want 1 to 1000"},
		{[]string{"-token", "t", "-ticks", "-1"}, "-ticks -1 out of range"},
		{[]string{"-token", "t", "-n", "0"}, "-n 0 out of range"},
		{[]string{"-token", "t", "-n", "1000001"}, "-n 1000001 out of range"},
		{[]string{"-token", "t", "extra"}, `unexpected argument "extra"`},
	}
	for _, c := range cases {
		wantUsage(t, append([]string{"serve"}, c.args...), c.msg)
	}
	for _, c := range []struct {
		args   []string
		budget int
	}{
		{[]string{"-token", "t", "-addr", "0.0.0.0:0", "-hosts", "game.example, 10.0.0.2"}, 64 << 10},
		{[]string{"-token", "t", "-budget", "16KiB"}, 16 << 10},
		{[]string{"-token", "t", "-budget", "2MiB"}, 2 << 20},
		{[]string{"-token", "t", "-budget", "1000"}, 1000},
		{[]string{"-token", "t", "-budget", "-1"}, -1},
	} {
		o, err := parseServe(c.args, io.Discard)
		if err != nil || o.budget != c.budget {
			t.Errorf("%q: budget %d, %v; want %d", c.args, o.budget, err, c.budget)
		}
	}
	o, _ := parseServe([]string{"-token", "t", "-addr", "0.0.0.0:0", "-hosts", "game.example, 10.0.0.2", "-origins", "https://game.example"}, io.Discard)
	if strings.Join(o.hosts, "|") != "game.example|10.0.0.2" || strings.Join(o.origins, "|") != "https://game.example" {
		t.Errorf("hosts %q, origins %q", o.hosts, o.origins)
	}
	t.Setenv("TESSERA_NET_TOKEN", "env")
	if o, err := parseServe(nil, io.Discard); err != nil || o.token != "env" {
		t.Errorf("token from the environment: %q, %v", o.token, err)
	}
	if code, out, _ := runCmd("serve", "-h"); code != 0 || out != "" {
		t.Errorf("serve -h: exit %d", code)
	}
}
