// "kit: Generate": runs `kit gen` for the design of the active file (or of the workspace
// folder) and reports the outcome; the command's own output goes to the kit channel.
import * as path from "path";

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export type Runner = (command: string, args: string[], cwd: string) => Promise<RunResult>;

export interface Sink {
  appendLine(line: string): void;
}

export interface Outcome {
  ok: boolean;
  message: string;
}

/** The path `kit gen` starts from: the active design file's folder, else the first workspace folder. */
export function generateTarget(activeFile: string | undefined, folders: string[]): string | undefined {
  if (activeFile && (activeFile.endsWith(".kit") || activeFile.endsWith(".proto") || path.basename(activeFile) === "kit.design.yaml")) {
    return path.dirname(activeFile);
  }
  return folders[0];
}

export async function generate(kit: string, target: string, run: Runner, out: Sink): Promise<Outcome> {
  out.appendLine(`$ ${kit} gen ${target}`);
  let result: RunResult;
  try {
    result = await run(kit, ["gen", target], target);
  } catch (err) {
    const message = `kit: could not run ${kit}: ${err instanceof Error ? err.message : String(err)}`;
    out.appendLine(message);
    return { ok: false, message };
  }
  for (const line of (result.stdout + result.stderr).split(/\r?\n/)) {
    if (line) {
      out.appendLine(line);
    }
  }
  const summary = result.stdout.split(/\r?\n/).filter((l) => l.startsWith("kit: ")).pop();
  if (result.code === 0) {
    return { ok: true, message: summary ?? "kit: generated" };
  }
  const first = result.stderr.split(/\r?\n/).find((l) => l.trim()) ?? `exit code ${result.code}`;
  return { ok: false, message: `kit gen failed: ${first}` };
}
