/**
 * The codec builds a runtime can load: the one its own resolution picks (Deno and Bun both match
 * the `node` export condition), and the WebCrypto build that `--conditions=browser` selects.
 */
export const BUILDS = [
  {
    label: 'own resolution: node, node:crypto',
    condition: undefined,
    backend: 'node',
    file: /\/packages\/codec\/dist\/index\.node\.js$/,
  },
  {
    label: '--conditions=browser: WebCrypto',
    condition: 'browser',
    backend: 'webcrypto',
    file: /\/packages\/codec\/dist\/index\.js$/,
  },
] as const;
