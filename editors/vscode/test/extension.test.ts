import * as assert from "assert";
import { RunResult } from "../src/generate";
import { ClientLike, COMMANDS, KitExtension } from "../src/kitExtension";
import { System } from "../src/serverPath";
import { Settings } from "../src/settings";
import { designFolderOf, isKitFile, protoSelector } from "../src/protos";
import { changeSettings, FakeChannel, openDocument, reset, state } from "./stubs/vscode";

class FakeClient implements ClientLike {
  started = 0;
  stopped = 0;
  constructor(readonly command: string, readonly settings: Settings, readonly failStart = false) {}
  async start(): Promise<void> {
    this.started++;
    if (this.failStart) {
      throw new Error("spawn EACCES");
    }
  }
  async stop(): Promise<void> {
    this.stopped++;
  }
}

interface Harness {
  ext: KitExtension;
  clients: FakeClient[];
  runs: { command: string; args: string[]; cwd: string }[];
  channel: FakeChannel;
}

const files = new Set(["/home/me/.local/bin/kit-lsp", "/home/me/.local/bin/kit", "/opt/kit/kit-lsp"]);
const sys: System = { env: { PATH: "/home/me/.local/bin" }, platform: "linux", homedir: () => "/home/me", isFile: (p) => files.has(p) };

async function activate(result: RunResult = { code: 0, stdout: "wrote   main.go\nkit: 3 written, 0 unchanged, 0 swept\n", stderr: "" }, failStart = false): Promise<Harness> {
  const clients: FakeClient[] = [];
  const runs: Harness["runs"] = [];
  const ext = new KitExtension(
    (command, settings) => {
      const c = new FakeClient(command, settings, failStart);
      clients.push(c);
      return c;
    },
    sys,
    async (command, args, cwd) => {
      runs.push({ command, args, cwd });
      return result;
    },
  );
  await ext.activate({ subscriptions: [] } as never);
  return { ext, clients, runs, channel: state.channels[0] };
}

describe("the extension", () => {
  beforeEach(reset);

  it("registers its three commands and starts kit-lsp from PATH", async () => {
    const h = await activate();
    assert.deepStrictEqual([...state.commands.keys()].sort(), [COMMANDS.generate, COMMANDS.restart, COMMANDS.showOutput].sort());
    assert.strictEqual(h.clients.length, 1);
    assert.strictEqual(h.clients[0].command, "/home/me/.local/bin/kit-lsp");
    assert.strictEqual(h.clients[0].started, 1);
    assert.strictEqual(h.channel.name, "kit");
  });

  it("restarts on the command: the old client stops before a new one starts", async () => {
    const h = await activate();
    await state.commands.get(COMMANDS.restart)!();
    assert.strictEqual(h.clients.length, 2);
    assert.deepStrictEqual([h.clients[0].stopped, h.clients[1].started], [1, 1]);
  });

  it("restarts with the new server when kit.serverPath changes, and passes settings through", async () => {
    const h = await activate();
    changeSettings({ serverPath: "/opt/kit/kit-lsp", generateOnSave: false });
    await new Promise((r) => setImmediate(r));
    assert.strictEqual(h.clients[0].stopped, 1);
    assert.strictEqual(h.clients[1].command, "/opt/kit/kit-lsp");
    assert.strictEqual(h.clients[1].settings.generateOnSave, false);
  });

  it("says what is wrong when the server cannot be found or started", async () => {
    state.settings.serverPath = "/nope/kit-lsp";
    const h = await activate();
    assert.strictEqual(h.clients.length, 0);
    assert.deepStrictEqual(state.messages.error, ['kit.serverPath is "/nope/kit-lsp", but /nope/kit-lsp is not a file']);
    reset();
    await activate(undefined, true);
    assert.deepStrictEqual(state.messages.error, ["kit: /home/me/.local/bin/kit-lsp did not start: spawn EACCES"]);
  });

  it("warns about an invalid setting and uses its default", async () => {
    state.settings["trace.server"] = "loud";
    const h = await activate();
    assert.strictEqual(h.clients[0].settings.trace, "off");
    assert.deepStrictEqual(state.messages.warning, ['kit.trace.server has an invalid value "loud"; using "off"']);
  });

  it("shows the output channel", async () => {
    const h = await activate();
    await state.commands.get(COMMANDS.showOutput)!();
    assert.strictEqual(h.channel.shown, 1);
  });

  it("generates the design of the active file with the kit beside the server", async () => {
    state.folders = ["/work"];
    state.activeFile = "/work/api/design/users.kit";
    const h = await activate();
    assert.strictEqual(await state.commands.get(COMMANDS.generate)!(), true);
    assert.deepStrictEqual(h.runs, [{ command: "/home/me/.local/bin/kit", args: ["gen", "/work/api/design"], cwd: "/work/api/design" }]);
    assert.strictEqual(state.saved, 1); // unsaved edits are generated too
    assert.deepStrictEqual(state.messages.info, ["kit: 3 written, 0 unchanged, 0 swept"]);
    assert.ok(h.channel.lines.includes("wrote   main.go"));
  });

  it("falls back to the workspace folder and reports a failed run in the output", async () => {
    state.folders = ["/work"];
    state.activeFile = "/work/README.md";
    const h = await activate({ code: 1, stdout: "", stderr: "design/a.kit:3:6: error decl/name-case: ...\nkit: the design has errors; nothing was written\n" });
    assert.strictEqual(await state.commands.get(COMMANDS.generate)!(), false);
    assert.strictEqual(h.runs[0].cwd, "/work");
    assert.deepStrictEqual(state.messages.error, ["kit gen failed: design/a.kit:3:6: error decl/name-case: ..."]);
    assert.strictEqual(h.channel.shown, 1);
  });

  it("asks for a design when there is nothing to generate", async () => {
    await activate();
    assert.strictEqual(await state.commands.get(COMMANDS.generate)!(), false);
    assert.match(state.messages.error[0], /open a design file/);
  });
});

describe("protos", () => {
  beforeEach(reset);

  const designs = new Set(["/work/api/design/kit.design.yaml", "/other/design/kit.design.yaml"]);
  const protoSys: System = { ...sys, isFile: (p) => files.has(p) || designs.has(p) };

  async function activateWith(): Promise<{ ext: KitExtension; clients: { designFolders: readonly string[] }[] }> {
    const clients: { designFolders: readonly string[] }[] = [];
    const ext = new KitExtension(
      (command, settings, _output, designFolders) => {
        const c = new FakeClient(command, settings);
        clients.push({ designFolders: [...designFolders] });
        return c;
      },
      protoSys,
      async () => ({ code: 0, stdout: "", stderr: "" }),
    );
    await ext.activate({ subscriptions: [] } as never);
    return { ext, clients };
  }

  it("a .proto outside any design folder does not start kit-lsp", async () => {
    state.documents = ["/elsewhere/api.proto"];
    const h = await activateWith();
    assert.strictEqual(h.clients.length, 0);
    await openDocument("/elsewhere/more/other.proto");
    assert.strictEqual(h.clients.length, 0);
  });

  it("a .proto inside a design folder starts kit-lsp for that design's protos", async () => {
    state.documents = ["/elsewhere/api.proto"];
    const h = await activateWith();
    await openDocument("/work/api/design/orders/v1/orders.proto");
    assert.deepStrictEqual(h.clients.map((c) => c.designFolders), [["/work/api/design"]]);
    assert.deepStrictEqual(protoSelector(h.ext.designFolders), [{ scheme: "file", pattern: "/work/api/design/**/*.proto" }]);
  });

  it("the workspace's designs are served from the start; a proto of another design restarts the client", async () => {
    state.manifests = ["/work/api/design/kit.design.yaml"];
    const h = await activateWith();
    assert.deepStrictEqual(h.clients.map((c) => c.designFolders), [["/work/api/design"]]);
    await openDocument("/work/api/design/users/users.proto");
    assert.strictEqual(h.clients.length, 1); // same design: nothing to do
    await openDocument("/other/design/stock.proto");
    assert.deepStrictEqual(h.clients[1].designFolders, ["/work/api/design", "/other/design"]);
  });

  it("knows a design folder by the manifest above the file", () => {
    assert.strictEqual(designFolderOf("/work/api/design/a/b/c.proto", protoSys.isFile), "/work/api/design");
    assert.strictEqual(designFolderOf("/work/c.proto", protoSys.isFile), undefined);
    assert.strictEqual(isKitFile("/work/c.proto", protoSys.isFile), false);
    assert.strictEqual(isKitFile("/work/c.kit", protoSys.isFile), true);
  });
});
