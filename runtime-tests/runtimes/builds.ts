/**
 * The codec builds a runtime can load: the one its own resolution picks (Deno and Bun both match
 * the `node` export condition), and the WebCrypto build that `--conditions=browser` selects.
 */
export const BUILDS = [
  {
    label: 'as the runtime resolves it (the node condition: node:crypto back end)',
    condition: undefined,
    backend: 'node',
    file: /\/packages\/codec\/dist\/index\.node\.js$/,
  },
  {
    label: 'with --conditions=browser (the WebCrypto build)',
    condition: 'browser',
    backend: 'webcrypto',
    file: /\/packages\/codec\/dist\/index\.web\.js$/,
  },
] as const;
