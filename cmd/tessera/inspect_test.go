package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestDemoInspect runs the demo with the inspector, reads the world
// summary through it while the ticks run, and checks the run still ends
// with its summary when -ticks is given.
func TestDemoInspect(t *testing.T) {
	pr, pw := io.Pipe()
	var errOut strings.Builder
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"demo", "-quiet", "-n", "3000", "-inspect", "127.0.0.1:0", "-tps", "200", "-ticks", "200", "-token", "t0k"}, pw, &errOut)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var out strings.Builder
	url := regexp.MustCompile(`inspector: +(http://127\.0\.0\.1:\d+/) +\(writes allowed with the token`)
	var summary struct {
		Entities int
		Loop     bool
		Tick     uint64
	}
	copied := make(chan struct{})
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		m := url.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		resp, err := http.Get(m[1] + "api/world")
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&summary)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || summary.Entities == 0 || !summary.Loop {
			t.Errorf("GET api/world: %d %+v %v", resp.StatusCode, summary, err)
		}
		go func() { // the rest of the run
			io.Copy(&out, pr)
			close(copied)
		}()
		break
	}
	if c := <-code; c != 0 {
		t.Fatalf("exit %d: %s", c, errOut.String())
	}
	if summary.Entities != 0 {
		<-copied
	}
	if summary.Entities == 0 {
		t.Fatalf("no inspector line in %q", out.String())
	}
	if !strings.Contains(out.String(), "200 ticks at 200 per second") {
		t.Errorf("first line: %q", out.String())
	}
}

func TestDemoInspectRefusesRemoteAddress(t *testing.T) {
	code, _, errOut := runCmd("demo", "-quiet", "-n", "10", "-inspect", "0.0.0.0:0", "-ticks", "1")
	if code != 1 || !strings.Contains(errOut, "not a loopback address") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestDemoInspectHistory runs the demo with -history and reads the
// inspector's history while the ticks run.
func TestDemoInspectHistory(t *testing.T) {
	pr, pw := io.Pipe()
	var errOut strings.Builder
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"demo", "-quiet", "-n", "2000", "-inspect", "127.0.0.1:0", "-history", "50", "-tps", "300", "-ticks", "300"}, pw, &errOut)
		pw.Close()
	}()
	url := regexp.MustCompile(`inspector: +(http://127\.0\.0\.1:\d+/)`)
	var history struct {
		Depth  int
		Ticks  []uint64
		Replay bool
	}
	var out strings.Builder
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		m := url.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		resp, err := http.Get(m[1] + "api/history?list=1")
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&history)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("GET api/history: %d %v", resp.StatusCode, err)
		}
		break
	}
	go io.Copy(&out, pr)
	if c := <-code; c != 0 {
		t.Fatalf("exit %d: %s", c, errOut.String())
	}
	if history.Depth != 50 || len(history.Ticks) == 0 || history.Ticks[0] != 0 || !history.Replay {
		t.Errorf("history: %+v", history)
	}
}
