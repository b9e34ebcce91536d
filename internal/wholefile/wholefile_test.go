package wholefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new" {
		t.Fatalf("read %q, %v; want \"new\"", got, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1 (no temporary left)", len(entries))
	}
}

// TestWriteKeepsTheOldFileOnError: a failing write leaves the old file as
// it was and no temporary behind.
func TestWriteKeepsTheOldFileOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	failed := errors.New("half written")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "ne")
		return failed
	})
	if !errors.Is(err, failed) {
		t.Errorf("err = %v, want the write's error", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("the file holds %q, want \"old\"", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1 (no temporary left)", len(entries))
	}
	if err := Write(filepath.Join(dir, "no", "such", "dir"), func(io.Writer) error { return nil }); err == nil {
		t.Error("writing into a missing directory gave no error")
	}
}
