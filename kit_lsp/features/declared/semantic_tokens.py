from kit_lsp.features.declared import Declares, Method

TYPES = [
    "namespace",
    "type",
    "typeParameter",
    "parameter",
    "property",
    "enumMember",
    "function",
    "method",
    "keyword",
    "comment",
    "string",
    "number",
    "operator",
    "decorator",
    "enum",
]
MODIFIERS = ["declaration", "defaultLibrary"]
LEGEND = {"tokenTypes": TYPES, "tokenModifiers": MODIFIERS}

DECLARED = Declares(
    Method(  # pygls takes the legend and advertises full documents (the only method kit has)
        "textDocument/semanticTokens/full",
        "semanticTokensProvider",
        options=LEGEND,
        options_type="SemanticTokensLegend",
        advertises={"legend": LEGEND, "full": True},
    )
)
