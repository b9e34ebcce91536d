//go:build unix

package windowtest

import (
	"os/exec"
	"syscall"
)

// killGroup starts cmd in a process group of its own and makes the
// cancellation of its context kill the whole group: xvfb-run, the X
// server and the game, not xvfb-run alone.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
