import * as assert from "assert";
import { kitCommand, resolveServer, ServerNotFound, System } from "../src/serverPath";

function system(files: string[], extra: Partial<System> = {}): System {
  const set = new Set(files);
  return { env: { PATH: "/usr/bin:/home/me/.local/bin" }, platform: "linux", homedir: () => "/home/me", isFile: (p) => set.has(p), ...extra };
}

describe("server path resolution", () => {
  it("uses kit.serverPath when it names a file", () => {
    const sys = system(["/opt/kit/bin/kit-lsp", "/home/me/.local/bin/kit-lsp"]);
    assert.deepStrictEqual(resolveServer("/opt/kit/bin/kit-lsp", ["/work"], sys), {
      command: "/opt/kit/bin/kit-lsp",
      source: "setting",
    });
  });

  it("expands ~, ${workspaceFolder} and paths relative to the workspace", () => {
    const sys = system(["/home/me/venvs/kit/bin/kit-lsp", "/work/tools/kit-lsp"]);
    assert.strictEqual(resolveServer("~/venvs/kit/bin/kit-lsp", ["/work"], sys).command, "/home/me/venvs/kit/bin/kit-lsp");
    assert.strictEqual(resolveServer("${workspaceFolder}/tools/kit-lsp", ["/work"], sys).command, "/work/tools/kit-lsp");
    assert.strictEqual(resolveServer("tools/kit-lsp", ["/work"], sys).command, "/work/tools/kit-lsp");
  });

  it("names the setting when it points nowhere, without falling back", () => {
    const sys = system(["/home/me/.local/bin/kit-lsp"]);
    assert.throws(
      () => resolveServer("/nope/kit-lsp", ["/work"], sys),
      (e: unknown) => e instanceof ServerNotFound && e.message === 'kit.serverPath is "/nope/kit-lsp", but /nope/kit-lsp is not a file',
    );
  });

  it("prefers a workspace virtualenv to PATH", () => {
    const sys = system(["/work/.venv/bin/kit-lsp", "/home/me/.local/bin/kit-lsp"]);
    assert.deepStrictEqual(resolveServer("", ["/work"], sys), { command: "/work/.venv/bin/kit-lsp", source: "workspace virtualenv" });
    const plain = system(["/work/venv/bin/kit-lsp"]);
    assert.strictEqual(resolveServer("", ["/other", "/work"], plain).command, "/work/venv/bin/kit-lsp");
  });

  it("looks on PATH, then says how to install kit", () => {
    assert.deepStrictEqual(resolveServer("", ["/work"], system(["/home/me/.local/bin/kit-lsp"])), {
      command: "/home/me/.local/bin/kit-lsp",
      source: "PATH",
    });
    assert.throws(() => resolveServer("", ["/work"], system([])), /kit-lsp was not found on PATH .*set kit.serverPath/);
  });

  it("finds kit-lsp.exe in Scripts on Windows", () => {
    const sys = system(["C:\\work\\.venv\\Scripts\\kit-lsp.exe"], {
      platform: "win32",
      env: { Path: "C:\\Windows", PATHEXT: ".COM;.EXE" },
    });
    assert.strictEqual(resolveServer("", ["C:\\work"], sys).command, "C:\\work\\.venv\\Scripts\\kit-lsp.exe");
  });

  it("runs the kit command installed beside the server", () => {
    const sys = system(["/work/.venv/bin/kit-lsp", "/work/.venv/bin/kit", "/usr/bin/kit"]);
    assert.strictEqual(kitCommand("/work/.venv/bin/kit-lsp", sys), "/work/.venv/bin/kit");
    assert.strictEqual(kitCommand("/opt/x/kit-lsp", sys), "/usr/bin/kit");
    assert.strictEqual(kitCommand("/opt/x/kit-lsp", system([])), "kit");
  });
});
