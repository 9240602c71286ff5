//go:build !kit_nodocsassets

package docsassets

import "embed"

// files holds the gzip-compressed assets; about 2.5 MB in the binary for the three UIs.
//
//go:embed files
var files embed.FS

const embedded = true

func readGzip(name string) ([]byte, error) { return files.ReadFile("files/" + name) }
