// The extension's behaviour, apart from VS Code's process: it starts kit-lsp, restarts it
// when asked or when its settings change, and runs "kit: Generate" and "kit: Show Output".
// A .proto wakes it only inside a design folder: opened elsewhere (the extension activates
// on proto languages too) it starts nothing; the client is given the protos of the design
// folders it knows, and restarted when a proto of another design folder is opened.
// The language client and the process runner are passed in, so tests drive it against a
// stubbed `vscode` module.
import * as path from "path";
import * as vscode from "vscode";
import { generate, generateTarget, Runner } from "./generate";
import { designFolderOf, isKitFile, isProto, MANIFEST } from "./protos";
import { kitCommand, resolveServer, ServerNotFound, System } from "./serverPath";
import { affectsServer, readSettings, Settings } from "./settings";

export interface ClientLike {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export type ClientFactory = (
  command: string,
  settings: Settings,
  output: vscode.OutputChannel,
  designFolders: readonly string[],
) => ClientLike;

export const COMMANDS = {
  generate: "kit.generate",
  restart: "kit.restartServer",
  showOutput: "kit.showOutput",
} as const;

export class KitExtension {
  private client: ClientLike | undefined;
  private server: string | undefined;
  private designs: string[] = [];
  private attempted = false; // started once: later kit files do not retry a server that is missing
  readonly output: vscode.OutputChannel;

  constructor(
    private readonly makeClient: ClientFactory,
    private readonly sys: System,
    private readonly run: Runner,
  ) {
    this.output = vscode.window.createOutputChannel("kit");
  }

  async activate(context: vscode.ExtensionContext): Promise<void> {
    context.subscriptions.push(
      this.output,
      vscode.commands.registerCommand(COMMANDS.generate, () => this.generate()),
      vscode.commands.registerCommand(COMMANDS.restart, () => this.restart()),
      vscode.commands.registerCommand(COMMANDS.showOutput, () => this.output.show(true)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsServer((s) => e.affectsConfiguration(s))) {
          void this.restart();
        }
      }),
      vscode.workspace.onDidOpenTextDocument((doc) => this.opened(doc.uri.fsPath)),
    );
    const manifests = await vscode.workspace.findFiles(`**/${MANIFEST}`, "**/node_modules/**");
    this.designs = manifests.map((m) => path.dirname(m.fsPath));
    const open = vscode.workspace.textDocuments.map((d) => d.uri.fsPath);
    for (const file of open.filter(isProto)) {
      this.know(file);
    }
    const strayProtos = open.length > 0 && open.every((f) => isProto(f) && !isKitFile(f, this.sys.isFile));
    if (this.designs.length === 0 && strayProtos) {
      return; // activated by a .proto outside any design: not kit's
    }
    await this.start();
  }

  /** Remembers the design folder of a proto; true when it is one the client does not serve yet. */
  private know(file: string): boolean {
    const folder = designFolderOf(file, this.sys.isFile);
    if (folder === undefined || this.designs.includes(folder)) {
      return false;
    }
    this.designs.push(folder);
    return true;
  }

  private async opened(file: string): Promise<void> {
    const newDesign = isProto(file) && this.know(file);
    if (!this.client && !this.attempted && isKitFile(file, this.sys.isFile)) {
      await this.start();
    } else if (this.client && newDesign) {
      await this.restart(); // the client's document selector gains that design's protos
    }
  }

  /** The design folders whose protos the client serves. */
  get designFolders(): readonly string[] {
    return this.designs;
  }

  private folders(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  }

  /** Starts kit-lsp; on a problem says what to do instead of failing silently. */
  async start(): Promise<boolean> {
    this.attempted = true;
    const { settings, problems } = readSettings(vscode.workspace.getConfiguration("kit"));
    for (const p of problems) {
      void vscode.window.showWarningMessage(p);
    }
    try {
      this.server = resolveServer(settings.serverPath, this.folders(), this.sys).command;
    } catch (err) {
      if (!(err instanceof ServerNotFound)) {
        throw err;
      }
      this.server = undefined;
      this.output.appendLine(err.message);
      void vscode.window.showErrorMessage(err.message);
      return false;
    }
    this.output.appendLine(`starting ${this.server}`);
    const client = this.makeClient(this.server, settings, this.output, this.designs);
    this.client = client;
    try {
      await client.start();
    } catch (err) {
      const message = `kit: ${this.server} did not start: ${err instanceof Error ? err.message : String(err)}`;
      this.output.appendLine(message);
      void vscode.window.showErrorMessage(message);
      return false;
    }
    return true;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.stop();
    }
  }

  async restart(): Promise<boolean> {
    await this.stop();
    return this.start();
  }

  async generate(): Promise<boolean> {
    const target = generateTarget(vscode.window.activeTextEditor?.document.uri.fsPath, this.folders());
    if (!target) {
      void vscode.window.showErrorMessage("kit: open a design file or a folder holding a design to generate it");
      return false;
    }
    await vscode.workspace.saveAll(false);
    const kit = kitCommand(this.server ?? "kit-lsp", this.sys);
    const outcome = await generate(kit, target, this.run, this.output);
    if (outcome.ok) {
      void vscode.window.showInformationMessage(outcome.message);
    } else {
      this.output.show(true);
      void vscode.window.showErrorMessage(outcome.message);
    }
    return outcome.ok;
  }
}
