// Loaded by mocha before the tests: `require("vscode")` gets test/stubs/vscode.
import Module = require("module");

const stub = require.resolve("./stubs/vscode");
const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const original = mod._resolveFilename;
mod._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
  return request === "vscode" ? stub : original.call(this, request, ...rest);
};
