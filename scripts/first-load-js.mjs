// First-load JavaScript per page route of the production build in .next (Next.js 16 no longer prints it):
// the JavaScript a browser fetches to show the page on a first visit — the root main files of
// build-manifest.json plus every chunk its client reference manifest lists for the page and its layouts —
// as bytes on disk and gzipped (what Next.js used to report). Prints a Markdown table.
// Usage: npm run build && node scripts/first-load-js.mjs [.next]
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';

const distDir = path.resolve(process.argv[2] ?? '.next');
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(distDir, file), 'utf8'));

if (!fs.existsSync(path.join(distDir, 'BUILD_ID'))) {
  process.stderr.write(`No production build in ${distDir}: run \`npm run build\` first.\n`);
  process.exit(1);
}

const buildManifest = readJson('build-manifest.json');
const routes = readJson('app-path-routes-manifest.json');

/** The manifest is a script that assigns to globalThis.__RSC_MANIFEST[entry]. */
function clientReferenceManifest(entry) {
  const file = path.join(distDir, 'server/app', `${entry}_client-reference-manifest.js`);
  const sandbox = { globalThis: {} };
  sandbox.globalThis = sandbox;
  vm.runInNewContext(fs.readFileSync(file, 'utf8'), sandbox);
  return sandbox.__RSC_MANIFEST[entry];
}

const sizes = new Map();
function sizeOf(file) {
  if (!sizes.has(file)) {
    const bytes = fs.readFileSync(path.join(distDir, file));
    sizes.set(file, { raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length });
  }
  return sizes.get(file);
}

const rows = [];
for (const [entry, route] of Object.entries(routes)) {
  if (!entry.endsWith('/page') || route === '/_global-error') continue;
  const manifest = clientReferenceManifest(entry);
  const files = new Set(buildManifest.rootMainFiles);
  for (const chunks of Object.values(manifest.entryJSFiles ?? {})) for (const chunk of chunks) files.add(chunk);
  const js = [...files].filter((file) => file.endsWith('.js'));
  const total = js.reduce((sum, file) => ({ raw: sum.raw + sizeOf(file).raw, gzip: sum.gzip + sizeOf(file).gzip }), { raw: 0, gzip: 0 });
  rows.push({ route, files: js, ...total });
}
rows.sort((a, b) => a.route.localeCompare(b.route));

// What every page loads (the framework, the root layout): the rest is the page's own.
const shared = rows.length
  ? rows.map((row) => new Set(row.files)).reduce((a, b) => new Set([...a].filter((file) => b.has(file))))
  : new Set();
const sharedGzip = [...shared].reduce((sum, file) => sum + sizeOf(file).gzip, 0);
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

const lines = [
  "| Route | First-load JS (gzip) | Of which the page's own | Uncompressed |",
  '| --- | ---: | ---: | ---: |',
  ...rows.map((row) => `| \`${row.route}\` | ${kB(row.gzip)} | ${kB(row.gzip - sharedGzip)} | ${kB(row.raw)} |`),
  '',
  `Shared by every page: ${kB(sharedGzip)} gzipped (${shared.size} files).`,
];
process.stdout.write(`${lines.join('\n')}\n`);
