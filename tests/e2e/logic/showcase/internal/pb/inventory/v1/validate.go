package inventoryv1

import "errors"

// Validate is the request's own check: the server layer runs it before the logic and
// answers InvalidArgument when it fails (a user file beside the plugins' pb code).
func (r *GetItemRequest) Validate() error {
	if r.GetSku() == "" {
		return errors.New("sku: required")
	}
	return nil
}

// Validate refuses the line "invalid": each streamed message is checked as it arrives.
func (l *ChatLine) Validate() error {
	if l.GetText() == "invalid" {
		return errors.New("text: must not be invalid")
	}
	return nil
}
