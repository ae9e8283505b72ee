import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The back end is chosen by the package's `exports` conditions, so this runs the BUILT package
 * the way users load it: by name (Node resolves a package's own name through its exports), in
 * a child process, with and without the `browser` condition, through import and require
 * (`pnpm test` builds first, so this never reads a stale dist/).
 */
const packageDir = fileURLToPath(new URL('..', import.meta.url));

function run(args: string[], code: string): string {
  return execFileSync(process.execPath, [...args, '-e', code], { cwd: packageDir, encoding: 'utf8' }).trim();
}

const IMPORT_NAME =
  "import('@jwe-transport/codec').then((m) => console.log(m.backendName, m.streamingAvailable))";
const REQUIRE_NAME =
  "const m = require('@jwe-transport/codec'); console.log(m.backendName, m.streamingAvailable)";

describe('package entry points', () => {
  it.each([
    ['import', [] as string[], IMPORT_NAME, 'node true'],
    ['require', [], REQUIRE_NAME, 'node true'],
    ['import', ['--conditions=browser'], IMPORT_NAME, 'webcrypto false'],
    ['require', ['--conditions=browser'], REQUIRE_NAME, 'webcrypto false'],
    // The Deno build, which Deno picks by its `deno` condition (runtime-tests/ run it in Deno).
    ['import', ['--conditions=deno'], IMPORT_NAME, 'webcrypto true'],
    ['require', ['--conditions=deno'], REQUIRE_NAME, 'webcrypto true'],
  ])('%s with %j gives "backendName streamingAvailable" = %j', (_kind, args, code, expected) => {
    expect(run(args, code)).toBe(expected);
  });

  it('what the web build encrypts the Node build decrypts, and back', () => {
    const encryptWith = (args: string[]) =>
      run(
        args,
        "import('@jwe-transport/codec').then(async (m) => console.log(JSON.stringify(await m.encryptJson({ from: m.backendName }, 'k3y-f0r-t3st1ng!'))))",
      );
    const decryptWith = (args: string[], envelope: string) =>
      run(
        args,
        `import('@jwe-transport/codec').then(async (m) => console.log(m.backendName, JSON.stringify(await m.decryptJson(${JSON.stringify(envelope)}, 'k3y-f0r-t3st1ng!'))))`,
      );
    expect(decryptWith([], encryptWith(['--conditions=browser']))).toBe('node {"from":"webcrypto"}');
    expect(decryptWith(['--conditions=browser'], encryptWith([]))).toBe('webcrypto {"from":"node"}');
  });
});
