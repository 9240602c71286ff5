// Package docsassets holds the pinned JavaScript and CSS the docs page (server.ServeDocs)
// loads: their versions, CDN URLs and Subresource Integrity hashes (assets.go, written by
// update.sh from the npm packages) and, unless the binary is built with the tag
// kit_nodocsassets, the files themselves, gzip-compressed and embedded.
package docsassets

import (
	"bytes"
	"compress/gzip"
	"io"
)

// Asset is one file a docs page loads.
type Asset struct {
	// Path under the docs page's asset folder: "<package>@<version>/<file>", so a new
	// version is a new URL and a cached copy never goes stale.
	Path string
	// CDN is the file's URL on jsDelivr, at the pinned version.
	CDN string
	// Integrity is the Subresource Integrity value ("sha384-<base64>") of the file as
	// the npm package ships it.
	Integrity string
	// ContentType the file is served with.
	ContentType string
	// Size of the uncompressed file in bytes.
	Size int64
}

// Embedded reports whether this binary carries the files (it was not built with the tag
// kit_nodocsassets).
func Embedded() bool { return embedded }

// Gzip returns the asset's file gzip-compressed, as embedded, or nil when the binary
// carries no files.
func (a Asset) Gzip() []byte {
	b, err := readGzip(a.Path + ".gz")
	if err != nil {
		return nil
	}
	return b
}

// Open returns a reader of the asset's uncompressed file, for a client that does not
// accept gzip.
func (a Asset) Open() (io.Reader, error) {
	b, err := readGzip(a.Path + ".gz")
	if err != nil {
		return nil, err
	}
	return gzip.NewReader(bytes.NewReader(b))
}
