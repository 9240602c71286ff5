# Names vulture cannot see used (scripts/test runs `vulture kit_core kit_lsp
# scripts/vulture_allow.py --min-confidence 60`). Each group says who uses them; a name
# that nothing uses any more is deleted, not listed here.
# ruff: noqa
_ = object()

# Read by the Jinja templates (kit_core/generators/templates/go), not by Python.
code_const, status_go, constructor, has_resp, resp_type, resp_body  # view-model fields
plain_params, plain_recv, shadow  # UnmarshalView
verb_const, sends_body, idempotent, error_func  # the Go client's method view (client.go.j2)
func  # the mock answers view (mock_answers.go.j2)

# Framework callbacks: pygls registers these by decorator (kit_lsp/features/*, and the
# built-in handlers kit_lsp/protocol.py marks with `lsp_method`).
code_action, open_file, inlay_hint, definition, highlight
code_lens, completion, folding, formatting, signature_help
initialized, folders_changed, did_change_configuration, shutdown, exit_
did_open, did_change, did_close, did_save, did_change_watched
_.lsp_shutdown
_.lsp_text_document__did_open, _.lsp_text_document__did_change, _.lsp_text_document__did_close
_.sort_text  # lsprotocol CompletionItem field, set on the item
_.ignore_aliases  # yaml.Dumper hook (kit_core/generators/openapi/serialize.py)
_.parameter  # protobuf CodeGeneratorRequest field (kit_core/proto/plugins.py)
_.log_errors  # google-re2 option (kit_core/regex.py)
_.isatty  # file-object protocol of the daemon's stream shim
_.__qualname__  # set on generated constructors (kit_core/fastnew.py)
__getattr__  # module-level lazy attributes (PEP 562): kit_core/proto, kit_lsp/server
exc_type, tb  # __exit__ parameters

# Data kept for the reader of a report or a parse (tests assert on them).
removed_dirs, _.removed_dirs  # writer.WriteReport
receiver_text, type_start, type_end, aliased, embedded  # kit_core/gosource facts
METHOD_NOT_FOUND, INTERNAL_ERROR, REQUEST_CANCELLED  # JSON-RPC error codes (kit_lsp/wire.py)
HINT  # the LSP severities kit_core.diagnostics.Severity names
tsClient  # manifest.OutputConfig: fields are filled by manifest key

# Called by tests and benchmarks only.
_.update_many  # kit_core/analyzer/session.py
undeclared  # kit_lsp/startup/capabilities.py (tests/lsp/test_wire.py)
compile_all  # kit_core/generators/go/template_cache.py (bench/gen, tests/golden)
load_manifest  # kit_core/manifest.py (tests/proto, bench/grpc)
_.end_position  # kit_lsp/documents.py (tests/lsp/test_documents.py)
