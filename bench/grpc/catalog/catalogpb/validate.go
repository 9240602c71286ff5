package catalogpb

import "errors"

// Validate is the request's own check, as protoc-gen-validate would give it: the kit
// server layer runs it through rpc.Validate, the bare server calls it directly.
func (r *GetItemRequest) Validate() error {
	if n := len(r.GetId()); n == 0 || n > 64 {
		return errors.New("id: length must be 1-64")
	}
	return nil
}

// Validate checks the page size.
func (r *ListItemsRequest) Validate() error {
	if l := r.GetLimit(); l < 1 || l > 100 {
		return errors.New("limit: must be 1-100")
	}
	return nil
}
