import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // These packages load WebAssembly, native bindings or worker files at run time; bundling them breaks that.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino', 'nodemailer'],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
