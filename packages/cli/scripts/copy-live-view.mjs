// Ships the proxy's live view (`jwe-transport proxy --ui`) inside the CLI package
// (dist/live.html), built by packages/inspector from the inspector's own rendering code.
import { copyFile } from 'node:fs/promises';

try {
  await copyFile(
    new URL('../../inspector/dist/live.html', import.meta.url),
    new URL('../dist/live.html', import.meta.url),
  );
} catch (error) {
  console.error(
    `Cannot copy the live view (${error.code ?? error.message}): build packages/inspector first.`,
  );
  process.exit(1);
}
