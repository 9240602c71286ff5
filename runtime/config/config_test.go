package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/config"
)

type server struct {
	Addr           string        `yaml:"addr"`
	HandlerTimeout time.Duration `yaml:"handlerTimeout"`
	StrictJSON     *bool         `yaml:"strictJSON"`
}

type cfg struct {
	ServiceName string `yaml:"serviceName"`
	Server      server `yaml:"server"`
}

func defaults() *cfg {
	return &cfg{ServiceName: "svc", Server: server{Addr: ":8080"}}
}

func write(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMissingFileKeepsDefaults(t *testing.T) {
	c := defaults()
	if err := config.Load(filepath.Join(t.TempDir(), "none.yaml"), c); err != nil {
		t.Fatal(err)
	}
	if *c != *defaults() {
		t.Fatalf("config changed: %+v", c)
	}
}

func TestFileOverridesOnlyWhatItSets(t *testing.T) {
	c := defaults()
	path := write(t, "server:\n  handlerTimeout: 250ms\n  strictJSON: false\nunknown: 1\n")
	if err := config.Load(path, c); err != nil {
		t.Fatal(err)
	}
	if c.ServiceName != "svc" || c.Server.Addr != ":8080" {
		t.Fatalf("defaults lost: %+v", c)
	}
	if c.Server.HandlerTimeout != 250*time.Millisecond || c.Server.StrictJSON == nil || *c.Server.StrictJSON {
		t.Fatalf("file values not read: %+v", c.Server)
	}
}

func TestEmptyFile(t *testing.T) {
	c := defaults()
	if err := config.Load(write(t, ""), c); err != nil || *c != *defaults() {
		t.Fatalf("empty file: %+v, %v", c, err)
	}
}

func TestBadYAMLNamesTheFile(t *testing.T) {
	path := write(t, "server: [1, 2\n")
	err := config.Load(path, defaults())
	if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Fatalf("error = %v", err)
	}
	err = config.Load(write(t, "server:\n  handlerTimeout: soon\n"), defaults())
	if err == nil {
		t.Fatal("a bad duration was accepted")
	}
}

func TestUnreadableFile(t *testing.T) {
	if err := config.Load(t.TempDir(), defaults()); err == nil {
		t.Fatal("reading a directory succeeded")
	}
}
