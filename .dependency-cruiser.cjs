// `pnpm deps:check`: the layering rules the packages' sources keep (see the root README's map).
const SERVER_ADAPTERS = '(express-middleware|fastify-plugin|hono-middleware)';
const ADAPTERS =
  '(express-middleware|fastify-plugin|hono-middleware|ky-plugin|undici-interceptor|axios-interceptor)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import circle inside a package: each file stands on the ones below it (type-only imports count too).',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'server-adapters-go-through-server-core',
      severity: 'error',
      comment:
        'Express, Fastify and Hono seal and open through the server engine (one place that publishes jwe-transport:seal and jwe-transport:open), never with the codec.',
      from: { path: `^packages/${SERVER_ADAPTERS}/src/` },
      to: { path: '(^|/)packages/codec/|@jwe-transport/codec' },
    },
    {
      name: 'no-upward-imports',
      severity: 'error',
      comment: "An adapter never reaches into another package's sources: it imports the package.",
      from: { path: `^packages/${ADAPTERS}/src/` },
      to: { path: '^packages/', pathNot: [`^packages/$1/`, '/dist/', 'node_modules'] },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '/dist/'] },
    exclude: { path: ['/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
