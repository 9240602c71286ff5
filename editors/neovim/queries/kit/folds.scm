; Folding ranges: declaration bodies, method bodies and multi-line argument lists.
[
  (member_body)
  (enum_body)
  (service_body)
  (method_body)
  (event_body)
  (argument_list)
  (array)
  (raw_string)
] @fold
