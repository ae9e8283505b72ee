// Ships the inspector page inside the CLI package (dist/inspector.html), so that
// `npx -p @jwe-transport/cli jwe-transport web` needs nothing else. The page is built by
// packages/inspector, which pnpm builds first (it is a devDependency here).
import { copyFile } from 'node:fs/promises';

const from = new URL('../../inspector/dist/inspector.html', import.meta.url);
const to = new URL('../dist/inspector.html', import.meta.url);
try {
  await copyFile(from, to);
} catch (error) {
  console.error(
    `Cannot copy the inspector page (${error.code ?? error.message}): build packages/inspector first.`,
  );
  process.exit(1);
}
