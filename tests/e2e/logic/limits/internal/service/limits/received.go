package api

import (
	"io"
	"mime/multipart"
	"os"

	types "example.com/limits/internal/types/api"
)

// received reads an uploaded file whole and says whether the multipart parser kept it in
// memory (a part past the parser's memory budget is spilled to a temporary *os.File).
func received(fh *multipart.FileHeader) (*types.Received, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	_, onDisk := f.(*os.File)
	n, err := io.Copy(io.Discard, f)
	if err != nil {
		return nil, err
	}
	return &types.Received{Size: n, InMemory: !onDisk}, nil
}
