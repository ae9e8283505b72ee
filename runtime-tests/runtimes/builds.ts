import type { RuntimeName } from '../support/runtimes.js';

/** A codec build a runtime loads, and what it must report: its one-shot back end and its file. */
export interface Build {
  label: string;
  condition: string | undefined;
  backend: 'node' | 'webcrypto';
  streaming: boolean;
  file: RegExp;
}

/** What `--conditions=browser` selects in either runtime: the WebCrypto build, without streaming. */
const WEBCRYPTO: Build = {
  label: '--conditions=browser: WebCrypto',
  condition: 'browser',
  backend: 'webcrypto',
  streaming: false,
  file: /\/packages\/codec\/dist\/index\.js$/,
};

/** The build each runtime's own resolution picks: Deno by its `deno` condition, Bun by `node`. */
export const OWN_BUILD: Record<RuntimeName, Build> = {
  deno: {
    label: 'own resolution: deno, WebCrypto one-shot with node:crypto streams',
    condition: undefined,
    backend: 'webcrypto',
    streaming: true,
    file: /\/packages\/codec\/dist\/index\.deno\.js$/,
  },
  bun: {
    label: 'own resolution: node, node:crypto',
    condition: undefined,
    backend: 'node',
    streaming: true,
    file: /\/packages\/codec\/dist\/index\.node\.js$/,
  },
};

/** The codec builds each runtime can load: the one it picks, and the WebCrypto build. */
export const BUILDS: Record<RuntimeName, readonly Build[]> = {
  deno: [OWN_BUILD.deno, WEBCRYPTO],
  bun: [OWN_BUILD.bun, WEBCRYPTO],
};
