import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

const BUNDLED = '@jwe-transport/example-service';
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const declared = new Set([
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
]);

const packageOf = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;

/**
 * Fails the build when the bundled reference service (or this package) imports a package this
 * package does not declare: it would otherwise be copied into dist silently, or missing at run
 * time. Add the service's new runtime dependency to "dependencies" instead.
 */
const declaredImportsOnly: Plugin = {
  name: 'declared-imports-only',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = packageOf(args.path);
      if (args.path.startsWith('node:') || builtinModules.includes(name) || name === BUNDLED)
        return undefined;
      if (declared.has(name)) return undefined;
      return {
        errors: [
          {
            text: `${name} is imported by ${args.importer} but is not a dependency of @jwe-transport/testing`,
          },
        ],
      };
    });
  },
};

export default defineConfig({
  // index: MSW handlers and builders (any runtime); undici: the MockAgent helper (Node);
  // reference-service: the repository's private reference service, bundled in (Node).
  entry: {
    index: 'src/index.ts',
    undici: 'src/undici/index.ts',
    'reference-service': 'src/reference-service.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
  removeNodeProtocol: false,
  // The reference service is private to the repository: its code ships inside this package, while
  // its runtime dependencies (express, busboy, the jwe-transport packages) stay dependencies.
  noExternal: [BUNDLED],
  esbuildPlugins: [declaredImportsOnly],
});
