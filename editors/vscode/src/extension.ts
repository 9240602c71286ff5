// Entry point: wires KitExtension to VS Code's process (language client, files, processes).
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as vscode from "vscode";
import { languageClient } from "./client";
import { Runner } from "./generate";
import { KitExtension } from "./kitExtension";
import { System } from "./serverPath";

const system: System = {
  env: process.env,
  platform: process.platform,
  homedir: os.homedir,
  isFile: (p) => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  },
};

const run: Runner = (command, args, cwd) =>
  new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== "number") {
        reject(err); // not started at all (ENOENT...)
        return;
      }
      resolve({ code: err ? (err.code as number) : 0, stdout, stderr });
    });
  });

let extension: KitExtension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extension = new KitExtension(languageClient, system, run);
  await extension.activate(context);
}

export async function deactivate(): Promise<void> {
  await extension?.stop();
}
