; Indentation (nvim-treesitter's capture names): one level inside every body and every
; argument list or array literal that spans lines; the closing bracket goes back out.

[
  (member_body)
  (enum_body)
  (service_body)
  (method_body)
  (event_body)
  (argument_list)
  (array)
] @indent.begin

[
  "}"
  ")"
  "]"
] @indent.branch @indent.end

(comment) @indent.auto

(raw_string) @indent.ignore
