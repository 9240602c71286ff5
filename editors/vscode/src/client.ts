// The real language client: kit-lsp over stdio, for .kit files, kit.design.yaml and the
// .proto files of design folders, its log and traces in the kit output channel.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from "vscode-languageclient/node";
import { ClientFactory } from "./kitExtension";
import { protoSelector } from "./protos";

export const languageClient: ClientFactory = (command, settings, output, designFolders) => {
  const serverOptions: ServerOptions = { command, args: ["-stdio"], transport: TransportKind.stdio };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "kit" },
      { scheme: "file", pattern: "**/kit.design.yaml" },
      ...protoSelector(designFolders),
    ],
    synchronize: {
      configurationSection: "kit",
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.kit,*.proto,kit.design.yaml}"),
    },
    initializationOptions: { generateOnSave: settings.generateOnSave },
    outputChannel: output,
  };
  // The id "kit" makes vscode-languageclient honour the `kit.trace.server` setting.
  return new LanguageClient("kit", "kit language server", serverOptions, clientOptions);
};
