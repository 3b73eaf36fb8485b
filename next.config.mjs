/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native or worker-heavy packages stay outside the server bundle.
  serverExternalPackages: [
    "@node-rs/argon2",
    "pg",
    "pg-boss",
    "@prisma/adapter-pg",
    "undici",
    "@kubernetes/client-node",
    "protobufjs",
  ],
  // These packages do not declare themselves free of side effects; listed here, Turbopack may leave
  // out of the browser bundle the parts of them the dashboard does not import.
  experimental: { optimizePackageImports: ["@trpc/client", "@trpc/tanstack-react-query"] },
  // REST paths are part of the public contract: never redirect /v2/deployments/ <-> /v2/deployments.
  skipTrailingSlashRedirect: true,
};

export default nextConfig;
