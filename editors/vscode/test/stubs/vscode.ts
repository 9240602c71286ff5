// A stand-in for the `vscode` module (test/setup.ts resolves `vscode` here): the parts of
// the API the extension uses, recording what the extension did with them.
/* eslint-disable @typescript-eslint/no-explicit-any */

export class FakeChannel {
  lines: string[] = [];
  shown = 0;
  disposed = false;
  constructor(readonly name: string) {}
  appendLine(line: string): void {
    this.lines.push(line);
  }
  show(): void {
    this.shown++;
  }
  dispose(): void {
    this.disposed = true;
  }
}

type Listener = (e: { affectsConfiguration(section: string): boolean }) => void;

export const state = {
  settings: {} as Record<string, unknown>,
  folders: [] as string[],
  activeFile: undefined as string | undefined,
  channels: [] as FakeChannel[],
  commands: new Map<string, (...args: any[]) => any>(),
  messages: { error: [] as string[], warning: [] as string[], info: [] as string[] },
  configListeners: [] as Listener[],
  openListeners: [] as ((doc: { uri: { fsPath: string } }) => unknown)[],
  manifests: [] as string[],
  documents: [] as string[],
  saved: 0,
};

export function reset(): void {
  state.settings = {};
  state.folders = [];
  state.activeFile = undefined;
  state.channels = [];
  state.commands.clear();
  state.messages = { error: [], warning: [], info: [] };
  state.configListeners = [];
  state.openListeners = [];
  state.manifests = [];
  state.documents = [];
  state.saved = 0;
}

/** Opens a document the way VS Code does, then tells the listeners. */
export async function openDocument(fsPath: string): Promise<void> {
  state.documents.push(fsPath);
  for (const l of state.openListeners) {
    await l({ uri: Uri.file(fsPath) });
  }
}

/** Changes settings the way the Settings editor does, then tells the listeners. */
export function changeSettings(values: Record<string, unknown>): void {
  Object.assign(state.settings, values);
  const keys = Object.keys(values).map((k) => `kit.${k}`);
  for (const l of state.configListeners) {
    l({ affectsConfiguration: (s: string) => keys.some((k) => k === s || k.startsWith(s + ".")) });
  }
}

export const Uri = { file: (fsPath: string) => ({ fsPath, scheme: "file" }) };

export const window = {
  createOutputChannel(name: string): FakeChannel {
    const c = new FakeChannel(name);
    state.channels.push(c);
    return c;
  },
  showErrorMessage: async (m: string) => void state.messages.error.push(m),
  showWarningMessage: async (m: string) => void state.messages.warning.push(m),
  showInformationMessage: async (m: string) => void state.messages.info.push(m),
  get activeTextEditor() {
    return state.activeFile ? { document: { uri: Uri.file(state.activeFile) } } : undefined;
  },
};

export const workspace = {
  getConfiguration(section: string) {
    return {
      get: <T>(key: string): T | undefined => (section === "kit" ? (state.settings[key] as T) : undefined),
    };
  },
  get workspaceFolders() {
    return state.folders.map((f, index) => ({ uri: Uri.file(f), name: f, index }));
  },
  onDidChangeConfiguration(listener: Listener) {
    state.configListeners.push(listener);
    return { dispose: () => undefined };
  },
  onDidOpenTextDocument(listener: (doc: { uri: { fsPath: string } }) => unknown) {
    state.openListeners.push(listener);
    return { dispose: () => undefined };
  },
  findFiles: async (include: string) => (include.endsWith("kit.design.yaml") ? state.manifests.map(Uri.file) : []),
  get textDocuments() {
    return state.documents.map((f) => ({ uri: Uri.file(f) }));
  },
  saveAll: async () => {
    state.saved++;
    return true;
  },
};

export const commands = {
  registerCommand(id: string, fn: (...args: any[]) => any) {
    state.commands.set(id, fn);
    return { dispose: () => state.commands.delete(id) };
  },
  executeCommand: async (id: string, ...args: any[]) => state.commands.get(id)?.(...args),
};
