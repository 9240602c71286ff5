// The extension's behaviour, apart from VS Code's process: it starts kit-lsp, restarts it
// when asked or when its settings change, and runs "kit: Generate" and "kit: Show Output".
// The language client and the process runner are passed in, so tests drive it against a
// stubbed `vscode` module.
import * as vscode from "vscode";
import { generate, generateTarget, Runner } from "./generate";
import { kitCommand, resolveServer, ServerNotFound, System } from "./serverPath";
import { affectsServer, readSettings, Settings } from "./settings";

export interface ClientLike {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export type ClientFactory = (command: string, settings: Settings, output: vscode.OutputChannel) => ClientLike;

export const COMMANDS = {
  generate: "kit.generate",
  restart: "kit.restartServer",
  showOutput: "kit.showOutput",
} as const;

export class KitExtension {
  private client: ClientLike | undefined;
  private server: string | undefined;
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
    );
    await this.start();
  }

  private folders(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  }

  /** Starts kit-lsp; on a problem says what to do instead of failing silently. */
  async start(): Promise<boolean> {
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
    const client = this.makeClient(this.server, settings, this.output);
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
