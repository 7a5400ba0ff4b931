// Adds lockfile entries for platform-specific optional packages (native binaries for other operating
// systems) that the package registry this project is developed against does not serve. Without them
// `npm ci` refuses the lockfile as out of sync. Each entry carries `os`/`cpu` (and `libc`), so npm skips
// it on every other platform and installs it, by version, only where it fits.
// Run after every `npm install` that changes dependencies: `node scripts/complete-lockfile.mjs`.
import fs from 'node:fs';

const lockfilePath = new URL('../package-lock.json', import.meta.url);
const lockfile = JSON.parse(fs.readFileSync(lockfilePath, 'utf8'));
const packages = lockfile.packages;

const operatingSystems = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openharmony', 'openbsd', 'netbsd', 'sunos', 'aix'];
const processors = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32', 'mips64el'];

/** os/cpu/libc from a name such as `@next/swc-linux-x64-musl` or `@tailwindcss/oxide-wasm32-wasi`. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => operatingSystems.includes(part));
  const cpu = parts.find((part) => processors.includes(part));
  if (cpu === undefined) return undefined;
  const platform = { cpu: [cpu] };
  if (os !== undefined) platform.os = [os];
  if (os === 'linux') {
    if (parts.some((part) => part.startsWith('musl'))) platform.libc = ['musl'];
    else if (parts.some((part) => part.startsWith('gnu'))) platform.libc = ['glibc'];
  }
  return platform;
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const prefix = location === '' ? '' : `${location}/`;
    if (packages[`${prefix}node_modules/${name}`] || packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (platform === undefined || !/^\d+\.\d+\.\d+/.test(version)) {
      console.warn(`left alone: ${name}@${version} (no platform in its name, or not an exact version)`);
      continue;
    }
    packages[`node_modules/${name}`] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added += 1;
  }
}

fs.writeFileSync(lockfilePath, `${JSON.stringify(lockfile, null, 2)}\n`);
console.log(`lockfile: ${added} platform entries added`);
