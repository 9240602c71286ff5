import * as assert from "assert";
import { affectsServer, DEFAULTS, readSettings } from "../src/settings";

const config = (values: Record<string, unknown>) => ({ get: <T>(k: string) => values[k] as T | undefined });

describe("settings", () => {
  it("defaults every setting", () => {
    assert.deepStrictEqual(readSettings(config({})), { settings: { ...DEFAULTS }, problems: [] });
  });

  it("reads the values the user set", () => {
    const { settings } = readSettings(
      config({ serverPath: "  /opt/kit/bin/kit-lsp ", "trace.server": "verbose", generateOnSave: false }),
    );
    assert.deepStrictEqual(settings, { serverPath: "/opt/kit/bin/kit-lsp", trace: "verbose", generateOnSave: false });
  });

  it("replaces a wrong value by its default and says so", () => {
    const { settings, problems } = readSettings(config({ "trace.server": "loud", generateOnSave: "yes", serverPath: 3 }));
    assert.deepStrictEqual(settings, { ...DEFAULTS });
    assert.deepStrictEqual(problems, [
      'kit.serverPath has an invalid value 3; using ""',
      'kit.trace.server has an invalid value "loud"; using "off"',
      'kit.generateOnSave has an invalid value "yes"; using true',
    ]);
  });

  it("restarts the server for its own settings only", () => {
    assert.ok(affectsServer((s) => s === "kit.serverPath"));
    assert.ok(affectsServer((s) => s === "kit.trace.server"));
    assert.ok(!affectsServer((s) => s === "editor.tabSize"));
  });
});
