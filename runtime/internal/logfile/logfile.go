// Package logfile gives tests a logger writing to a file, as a generated
// service's does to stderr (log.New holds the access lines for a batch only
// over a file), and reads the file back as JSON lines.
package logfile

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/kitdev/kit/runtime/log"
)

// File is a log file in a test's temporary folder.
type File struct {
	t testing.TB
	f *os.File
}

// New creates the file, closed when the test ends, and keeps the process
// default logger as it was (SetLogger of a server replaces it).
func New(t testing.TB) *File {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "access-*.log")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	prev := log.Default()
	t.Cleanup(func() { log.SetDefault(prev) })
	return &File{t: t, f: f}
}

// Logger returns a logger writing to the file.
func (lf *File) Logger() log.Logger { return log.New(lf.f) }

// Lines reads the file's lines, each decoded; a line that is not whole JSON
// fails the test.
func (lf *File) Lines() []map[string]any {
	lf.t.Helper()
	data, err := os.ReadFile(lf.f.Name())
	if err != nil {
		lf.t.Fatal(err)
	}
	var lines []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			lf.t.Fatalf("broken line %q: %v", line, err)
		}
		lines = append(lines, m)
	}
	return lines
}
