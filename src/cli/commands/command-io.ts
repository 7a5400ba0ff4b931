/** Where a command writes: the process's streams in use, a capture in tests. */
export type CommandIo = {
  stdout: { write: (text: string) => unknown; isTTY?: boolean };
  stderr: { write: (text: string) => unknown; isTTY?: boolean };
};

export const processIo: CommandIo = { stdout: process.stdout, stderr: process.stderr };

/** For tests: an io that keeps what a command wrote. */
export function captureIo(): CommandIo & { out: () => string; err: () => string } {
  let stdout = '';
  let stderr = '';
  return {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    out: () => stdout,
    err: () => stderr,
  };
}
