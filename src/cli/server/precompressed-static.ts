/**
 * Brotli for the build's static files (decision 059). Next.js compresses every response with gzip, per request.
 * The files under `/_next/static` never change within a build (their names carry a hash and they are served as
 * immutable), so each is compressed once, at brotli's highest quality, written beside the file and sent to
 * browsers that accept `br`: on the compliance journey the scripts and styles it loads before its first paint
 * shrink from 366 kB (gzip) to 297 kB, which a phone on a slow connection feels. Hand-written because Next.js has
 * no option for it and the static-file libraries that serve precompressed files (express-static-gzip and the
 * like) need their own router and do not write the files; negotiator decides whether the browser accepts `br`.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import Negotiator from 'negotiator';

const brotliCompress = promisify(zlib.brotliCompress);

const contentTypes: Readonly<Record<string, string>> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=UTF-8',
  '.txt': 'text/plain; charset=UTF-8',
};

/** Below this, brotli's few saved bytes are not worth a file. */
const minimumBytes = 1024;
const staticUrlPrefix = '/_next/static/';

type CompressedFile = { file: string; contentType: string; bytes: number };

export type PrecompressedStatic = {
  /** Answers a GET or HEAD for a compressed static file when the browser accepts brotli; false leaves it to Next.js. */
  serve: (request: http.IncomingMessage, response: http.ServerResponse) => boolean;
  /** Settles when every file is compressed (or found compressed from an earlier start). */
  ready: Promise<{ files: number; compressed: number }>;
};

function listFiles(directory: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const entryPath = path.join(directory, entry.name);
    return entry.isDirectory() ? listFiles(entryPath) : [entryPath];
  });
}

/** The `.br` file beside `file`, written now unless one at least as new as the file exists. */
async function compressFile(file: string): Promise<{ brotliFile: string; written: boolean }> {
  const brotliFile = `${file}.br`;
  const source = fs.statSync(file);
  const existing = fs.statSync(brotliFile, { throwIfNoEntry: false });
  if (existing !== undefined && existing.mtimeMs >= source.mtimeMs) return { brotliFile, written: false };
  const compressed = await brotliCompress(fs.readFileSync(file), {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.size,
    },
  });
  // Written under a temporary name and renamed, so another instance starting beside this one never reads half a file.
  const temporary = `${brotliFile}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, compressed);
  fs.renameSync(temporary, brotliFile);
  return { brotliFile, written: true };
}

/**
 * Starts compressing the build's static files in the background (libuv's thread pool, not the event loop) and
 * serves each one as soon as its `.br` file exists. Only paths found in the build are answered, so a request can
 * never name a file outside it.
 */
export function createPrecompressedStatic(options: { projectDirectory: string }): PrecompressedStatic {
  const staticDirectory = path.join(options.projectDirectory, '.next', 'static');
  const files = new Map<string, CompressedFile>();

  const ready = (async () => {
    const candidates = listFiles(staticDirectory).filter(
      (file) => contentTypes[path.extname(file)] !== undefined && fs.statSync(file).size >= minimumBytes,
    );
    let compressed = 0;
    for (const file of candidates) {
      const { brotliFile, written } = await compressFile(file);
      if (written) compressed += 1;
      const url = staticUrlPrefix + path.relative(staticDirectory, file).split(path.sep).join('/');
      files.set(url, { file: brotliFile, contentType: contentTypes[path.extname(file)]!, bytes: fs.statSync(brotliFile).size });
    }
    return { files: files.size, compressed };
  })();

  function serve(request: http.IncomingMessage, response: http.ServerResponse): boolean {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const url = (request.url ?? '').split('?')[0]!;
    if (!url.startsWith(staticUrlPrefix)) return false;
    const entry = files.get(url);
    if (entry === undefined) return false;
    if (!new Negotiator(request).encodings(['br']).includes('br')) return false;
    response.statusCode = 200;
    response.setHeader('Content-Type', entry.contentType);
    response.setHeader('Content-Encoding', 'br');
    response.setHeader('Content-Length', entry.bytes);
    response.setHeader('Vary', 'Accept-Encoding');
    response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    if (request.method === 'HEAD') {
      response.end();
      return true;
    }
    const stream = fs.createReadStream(entry.file);
    stream.on('error', () => response.destroy());
    stream.pipe(response);
    return true;
  }

  return { serve, ready };
}
