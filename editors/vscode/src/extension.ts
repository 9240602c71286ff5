// The kit extension: starts kit-lsp for .kit files and kit.design.yaml, restarts it on demand.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

function serverCommand(): string {
  const configured = vscode.workspace.getConfiguration("kit").get<string>("serverPath", "");
  return configured.trim() || "kit-lsp";
}

function createClient(): LanguageClient {
  const command = serverCommand();
  const serverOptions: ServerOptions = {
    run: { command, args: ["-stdio"], transport: TransportKind.stdio },
    debug: { command, args: ["-stdio"], transport: TransportKind.stdio },
  };
  const config = vscode.workspace.getConfiguration("kit");
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "kit" },
      { scheme: "file", pattern: "**/kit.design.yaml" },
    ],
    synchronize: {
      configurationSection: "kit",
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.kit,*.proto,kit.design.yaml}"),
    },
    initializationOptions: { generateOnSave: config.get<boolean>("generateOnSave", true) },
  };
  // The id "kit" makes vscode-languageclient honour the `kit.trace.server` setting.
  return new LanguageClient("kit", "kit language server", serverOptions, clientOptions);
}

async function start(): Promise<void> {
  client = createClient();
  try {
    await client.start();
  } catch (err) {
    void vscode.window.showErrorMessage(
      `kit: could not start ${serverCommand()} (set kit.serverPath or put kit-lsp on PATH): ${err}`,
    );
  }
}

async function restart(): Promise<void> {
  if (client) {
    await client.stop();
    client = undefined;
  }
  await start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(vscode.commands.registerCommand("kit.restartServer", restart));
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("kit.serverPath")) {
        void restart();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}
