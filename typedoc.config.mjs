// The API reference (`pnpm run docs`): one section per published TypeScript library of packages/.
// A library is a package whose package.json names its `types`; TypeDoc then finds each package's
// entry points from its package.json exports (or the package's own typedoc.json, for packages
// with several entry points), so renaming an entry file needs no change here. The inspector is a
// page, not a library, and has none.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const libraries = readdirSync('packages', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`packages/${entry.name}/package.json`))
  .map((entry) => `packages/${entry.name}`)
  .filter((dir) => JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')).types !== undefined)
  .sort();

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'jwe-transport',
  entryPointStrategy: 'packages',
  entryPoints: libraries,
  out: 'docs/api',
  readme: 'README.md',
  excludePrivate: true,
  excludeInternal: true,
};
