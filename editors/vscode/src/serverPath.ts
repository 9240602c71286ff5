// Where kit-lsp (and the kit command beside it) is: the kit.serverPath setting when set,
// else a virtualenv of the workspace (.venv or venv), else PATH.
import * as path from "path";

export interface System {
  env: Record<string, string | undefined>;
  platform: string;
  homedir(): string;
  isFile(p: string): boolean;
}

export interface Resolved {
  command: string;
  source: "setting" | "workspace virtualenv" | "PATH";
}

export class ServerNotFound extends Error {}

const VENVS = [".venv", "venv"];

function executables(name: string, sys: System): string[] {
  if (sys.platform !== "win32") {
    return [name];
  }
  const exts = (sys.env.PATHEXT || ".EXE;.CMD;.BAT").split(";").filter(Boolean);
  return exts.map((e) => name + e.toLowerCase());
}

function pathApi(sys: System): path.PlatformPath {
  return sys.platform === "win32" ? path.win32 : path.posix;
}

function expand(setting: string, folders: string[], sys: System): string {
  const p = pathApi(sys);
  let value = setting.replace(/\$\{workspaceFolder\}/g, folders[0] ?? "");
  if (value === "~" || value.startsWith("~/") || value.startsWith("~\\")) {
    value = p.join(sys.homedir(), value.slice(1));
  }
  if (!p.isAbsolute(value) && folders.length > 0) {
    value = p.join(folders[0], value);
  }
  return value;
}

function findIn(dirs: string[], name: string, sys: System): string | undefined {
  const p = pathApi(sys);
  for (const dir of dirs) {
    for (const exe of executables(name, sys)) {
      const candidate = p.join(dir, exe);
      if (sys.isFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

function venvBins(folders: string[], sys: System): string[] {
  const p = pathApi(sys);
  const bin = sys.platform === "win32" ? "Scripts" : "bin";
  return folders.flatMap((f) => VENVS.map((v) => p.join(f, v, bin)));
}

function pathDirs(sys: System): string[] {
  const raw = sys.env.PATH ?? sys.env.Path ?? "";
  return raw.split(sys.platform === "win32" ? ";" : ":").filter(Boolean);
}

export function resolveServer(setting: string, folders: string[], sys: System): Resolved {
  if (setting) {
    const command = expand(setting, folders, sys);
    if (!sys.isFile(command)) {
      throw new ServerNotFound(`kit.serverPath is ${JSON.stringify(setting)}, but ${command} is not a file`);
    }
    return { command, source: "setting" };
  }
  const inVenv = findIn(venvBins(folders, sys), "kit-lsp", sys);
  if (inVenv) {
    return { command: inVenv, source: "workspace virtualenv" };
  }
  const onPath = findIn(pathDirs(sys), "kit-lsp", sys);
  if (onPath) {
    return { command: onPath, source: "PATH" };
  }
  throw new ServerNotFound(
    "kit-lsp was not found on PATH or in a .venv of the workspace: install kit (pip install kit) " +
      "or set kit.serverPath to the kit-lsp executable",
  );
}

/** The kit command installed beside kit-lsp (same folder), else the one on PATH. */
export function kitCommand(server: string, sys: System): string {
  const p = pathApi(sys);
  return findIn([p.dirname(server)], "kit", sys) ?? findIn(pathDirs(sys), "kit", sys) ?? "kit";
}
