import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrecompressedStatic, type PrecompressedStatic } from './precompressed-static';

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

function request(port: number, url: string, options: { method?: string; acceptEncoding?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.acceptEncoding !== undefined) headers['Accept-Encoding'] = options.acceptEncoding;
    const outgoing = http.request({ host: '127.0.0.1', port, path: url, method: options.method ?? 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('brotli for the build’s static files', () => {
  const projectDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'medaptive-precompressed-'));
  const chunks = path.join(projectDirectory, '.next', 'static', 'chunks');
  const script = `export const rows = [${Array.from({ length: 400 }, (_, index) => `"row ${index}"`).join(',')}];\n`;
  let server: http.Server;
  let port = 0;
  let precompressed: PrecompressedStatic;

  beforeAll(async () => {
    fs.mkdirSync(chunks, { recursive: true });
    fs.writeFileSync(path.join(chunks, 'page-1a2b.js'), script);
    fs.writeFileSync(path.join(chunks, 'tiny.js'), 'export {};\n');
    fs.writeFileSync(path.join(chunks, 'font.woff2'), Buffer.alloc(4096, 7));
    fs.writeFileSync(path.join(projectDirectory, 'secret.js'), script);
    precompressed = createPrecompressedStatic({ projectDirectory });
    server = http.createServer((incoming, outgoing) => {
      if (precompressed.serve(incoming, outgoing)) return;
      outgoing.statusCode = 404;
      outgoing.end('left to Next.js');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(projectDirectory, { recursive: true, force: true });
  });

  it('compresses each script and style of at least 1 kB once, and finds the files on the next start', async () => {
    expect(await precompressed.ready).toEqual({ files: 1, compressed: 1 });
    expect(fs.existsSync(path.join(chunks, 'page-1a2b.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(chunks, 'tiny.js.br'))).toBe(false);
    expect(fs.existsSync(path.join(chunks, 'font.woff2.br'))).toBe(false);
    expect(await createPrecompressedStatic({ projectDirectory }).ready).toEqual({ files: 1, compressed: 0 });
  });

  it('sends the brotli file, which decompresses to the original, to a browser that accepts br', async () => {
    await precompressed.ready;
    const answer = await request(port, '/_next/static/chunks/page-1a2b.js?dpl=abc', { acceptEncoding: 'gzip, deflate, br, zstd' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toBe('application/javascript; charset=UTF-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.body.length).toBeLessThan(Buffer.byteLength(script) / 4);
    expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(script);

    const head = await request(port, '/_next/static/chunks/page-1a2b.js', { method: 'HEAD', acceptEncoding: 'br' });
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(answer.body.length);
    expect(head.body.length).toBe(0);
  });

  it('leaves the request to Next.js when the browser does not accept br, or refuses it by q=0', async () => {
    await precompressed.ready;
    for (const acceptEncoding of [undefined, 'gzip, deflate', 'gzip, br;q=0']) {
      const answer = await request(port, '/_next/static/chunks/page-1a2b.js', { acceptEncoding });
      expect(answer.status, String(acceptEncoding)).toBe(404);
      expect(answer.body.toString()).toBe('left to Next.js');
    }
  });

  it('answers only files of the build: other methods, paths outside it and files not compressed go to Next.js', async () => {
    await precompressed.ready;
    for (const url of [
      '/_next/static/chunks/tiny.js',
      '/_next/static/chunks/font.woff2',
      '/_next/static/chunks/../../../secret.js',
      '/_next/static/chunks/page-1a2b.js.br',
      '/secret.js',
    ]) {
      const answer = await request(port, url, { acceptEncoding: 'br' });
      expect(answer.status, url).toBe(404);
    }
    expect((await request(port, '/_next/static/chunks/page-1a2b.js', { method: 'POST', acceptEncoding: 'br' })).status).toBe(404);
  });
});
