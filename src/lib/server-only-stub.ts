/**
 * What `import 'server-only'` resolves to outside Next.js (tsx, Vitest: tsconfig.json `paths`, vitest.config.ts):
 * nothing. The guard itself lives in the Next.js build, which rejects `server-only` anywhere in the browser's
 * module graph whatever the specifier resolves to (docs/decisions/007-import-boundaries.md).
 */
export {};
