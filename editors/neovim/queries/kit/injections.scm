; Injections: the regular expression of `@pattern("...")` / @pattern(`...`) is RE2 syntax,
; highlighted with the `regex` grammar where the editor has it. The offset drops the quotes
; (Neovim reads it; editors without the directive inject the quoted text). For editors
; only: py-tree-sitter 0.26 corrupts memory when it frees a query holding a pattern with
; both a text predicate and #set!, so kit_core never compiles this file.

((decorator
  name: (_) @_name
  arguments: (argument_list
    argument: [(string) (raw_string)] @injection.content))
  (#eq? @_name "pattern")
  (#set! injection.language "regex")
  (#offset! @injection.content 0 1 0 -1))

((comment) @injection.content
  (#set! injection.language "comment"))
