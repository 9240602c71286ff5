// External scanner of the kit grammar: one zero-width token.
//
// dsl-facts §2.4 rule 2: an upper-case member name is a field (not a mixin) when it is
// followed *on the same line* by a built-in type name or `map` (`Count int`). A parser
// cannot see line breaks, so `_builtin_follows` is produced here: after spaces/tabs only
// (no newline, no comment) the next word must be a built-in type name or `map`.
//
// Hand-written (not generated); stateless, so (de)serialisation is empty.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <string.h>

enum TokenType {
    BUILTIN_FOLLOWS,
    ERROR_SENTINEL,  // never in the grammar: valid only while recovering from an error
};

static const char *const WORDS[] = {
    "string", "bytes",  "bool",   "int",     "int8",    "int16",    "int32",
    "int64",  "uint",   "uint8",  "uint16",  "uint32",  "uint64",   "float32",
    "float64", "datetime", "file", "any",    "object",  "map",
};

static bool is_word_char(int32_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_builtin(const char *word) {
    for (size_t i = 0; i < sizeof(WORDS) / sizeof(WORDS[0]); i++) {
        if (strcmp(word, WORDS[i]) == 0) {
            return true;
        }
    }
    return false;
}

void *tree_sitter_kit_external_scanner_create(void) { return NULL; }

void tree_sitter_kit_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_kit_external_scanner_serialize(void *payload, char *buffer) {
    (void)payload;
    (void)buffer;
    return 0;
}

void tree_sitter_kit_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
    (void)payload;
    (void)buffer;
    (void)length;
}

bool tree_sitter_kit_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
    (void)payload;
    if (!valid_symbols[BUILTIN_FOLLOWS] || valid_symbols[ERROR_SENTINEL]) {
        return false;
    }
    while (lexer->lookahead == ' ' || lexer->lookahead == '\t') {
        lexer->advance(lexer, true);
    }
    lexer->mark_end(lexer);  // zero width: the word itself is lexed by the parser
    char word[10];
    size_t n = 0;
    while (is_word_char(lexer->lookahead)) {
        if (n + 1 >= sizeof(word)) {
            return false;  // longer than any built-in name
        }
        word[n++] = (char)lexer->lookahead;
        lexer->advance(lexer, false);
    }
    word[n] = '\0';
    if (n == 0 || !is_builtin(word)) {
        return false;
    }
    lexer->result_symbol = BUILTIN_FOLLOWS;
    return true;
}
