// The extension's settings (section `kit`), typed and fully defaulted. A value of the wrong
// type is replaced by its default and reported, never thrown.

export type Trace = "off" | "messages" | "verbose";

export interface Settings {
  /** Path of kit-lsp; empty: a workspace virtualenv's kit-lsp, else the one on PATH. */
  serverPath: string;
  /** Traces the JSON-RPC between VS Code and kit-lsp in the kit output channel. */
  trace: Trace;
  /** kit-lsp regenerates the design when a design file is saved. */
  generateOnSave: boolean;
}

export const DEFAULTS: Readonly<Settings> = Object.freeze({ serverPath: "", trace: "off", generateOnSave: true });

/** What `vscode.workspace.getConfiguration("kit")` offers that this module reads. */
export interface ConfigurationLike {
  get<T>(section: string): T | undefined;
}

const TRACES: readonly Trace[] = ["off", "messages", "verbose"];

export function readSettings(config: ConfigurationLike): { settings: Settings; problems: string[] } {
  const problems: string[] = [];
  const pick = <T>(key: string, fallback: T, ok: (v: unknown) => v is T): T => {
    const value = config.get<unknown>(key);
    if (value === undefined || value === null) {
      return fallback;
    }
    if (!ok(value)) {
      problems.push(`kit.${key} has an invalid value ${JSON.stringify(value)}; using ${JSON.stringify(fallback)}`);
      return fallback;
    }
    return value;
  };
  const settings: Settings = {
    serverPath: pick("serverPath", DEFAULTS.serverPath, (v): v is string => typeof v === "string").trim(),
    trace: pick("trace.server", DEFAULTS.trace, (v): v is Trace => TRACES.includes(v as Trace)),
    generateOnSave: pick("generateOnSave", DEFAULTS.generateOnSave, (v): v is boolean => typeof v === "boolean"),
  };
  return { settings, problems };
}

/** Whether a configuration change means the server must be restarted. */
export function affectsServer(affects: (section: string) => boolean): boolean {
  return ["kit.serverPath", "kit.trace.server", "kit.generateOnSave"].some((s) => affects(s));
}
