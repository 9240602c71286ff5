// Prints the TextMate tokens of design files as JSON, the way VS Code tokenizes them
// (vscode-textmate + the Oniguruma WebAssembly build): {file: [[line, start, end, scopes]]}.
// Used by tests/editors/test_vscode.py to compare scopes with the tree-sitter highlights.
"use strict";
const fs = require("fs");
const path = require("path");
const oniguruma = require("vscode-oniguruma");
const textmate = require("vscode-textmate");

const GRAMMAR = path.join(__dirname, "..", "..", "syntaxes", "kit.tmLanguage.json");

async function main(files) {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === "source.kit" ? textmate.parseRawGrammar(fs.readFileSync(GRAMMAR, "utf8"), GRAMMAR) : null,
  });
  const grammar = await registry.loadGrammar("source.kit");
  const out = {};
  for (const file of files) {
    let stack = textmate.INITIAL;
    const tokens = [];
    fs.readFileSync(file, "utf8").split("\n").forEach((line, i) => {
      const r = grammar.tokenizeLine(line, stack);
      for (const t of r.tokens) {
        tokens.push([i, t.startIndex, Math.min(t.endIndex, line.length), t.scopes]);
      }
      stack = r.ruleStack;
    });
    out[file] = tokens;
  }
  process.stdout.write(JSON.stringify(out));
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err);
  process.exit(1);
});
