//go:build kit_nodocsassets

package docsassets

import "io/fs"

// Built with kit_nodocsassets: no files, the docs pages load their assets from the CDN.
const embedded = false

func readGzip(name string) ([]byte, error) { return nil, fs.ErrNotExist }
