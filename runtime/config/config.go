// Package config reads a service's YAML configuration file into the config struct the
// generated project declares, so that generated code needs no YAML library of its own.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"gopkg.in/yaml.v3"
)

// Load reads the YAML file at path into into (a pointer to a struct with `yaml` tags).
// Fields the file does not set keep the values into already holds, so callers fill the
// defaults first. A missing file is not an error: into is left as it was. Durations are
// written as Go duration strings ("30s", "100ms").
func Load(path string, into any) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return Parse(path, data, into)
}

// Parse decodes YAML data into into; name labels errors (usually the file path).
func Parse(name string, data []byte, into any) error {
	if err := yaml.Unmarshal(data, into); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
