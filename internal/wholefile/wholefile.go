// Package wholefile writes a file so that it is either whole or not
// written at all: the commands' save files and generated code.
package wholefile

import (
	"io"
	"os"
	"path/filepath"
)

// Write writes a file at path with write, through a temporary file in the
// same directory renamed over path once write and the close have
// succeeded: a failure never leaves a partial file, and the old one stays
// until the new one is whole. The file gets mode 0644. It returns the
// first error of creating, writing (write's own), closing or renaming.
func Write(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
