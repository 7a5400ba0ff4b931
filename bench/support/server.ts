/**
 * The production server as the benchmarks start it: `src/cli/serve.ts` over the production build, on loopback,
 * in its own process group (so a SIGKILL reaches everything it started), and a fresh PostgreSQL database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import pg from 'pg';

const projectDirectory = process.cwd();

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export type Server = { child: ChildProcess; port: number; exited: Promise<number | null>; output: () => string };

export async function startServer(environment: Record<string, string>, port: number): Promise<{ server: Server; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/serve.ts'], {
    cwd: projectDirectory,
    env: {
      ...process.env,
      ...environment,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so SIGKILL reaches anything it started
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 240_000;
  while (!output.includes('is ready on')) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`the server did not start within 240 s:\n${output.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { server: { child, port, exited, output: () => output }, seconds: (performance.now() - started) / 1000 };
}

export async function killServer(server: Server, signal: NodeJS.Signals): Promise<void> {
  try {
    process.kill(-(server.child.pid as number), signal);
  } catch {
    // already gone
  }
  await server.exited;
}

/** A new, empty database on the server BENCH_DATABASE_URL names; `drop` removes it. */
export async function freshPostgresDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `medaptive_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
