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

const IMPORT_NAME = "import('@jwe-transport/codec').then((m) => console.log(m.backendName))";
const REQUIRE_NAME = "console.log(require('@jwe-transport/codec').backendName)";

describe('package entry points', () => {
  it.each([
    ['import', [] as string[], IMPORT_NAME, 'node'],
    ['require', [], REQUIRE_NAME, 'node'],
    ['import', ['--conditions=browser'], IMPORT_NAME, 'webcrypto'],
    ['require', ['--conditions=browser'], REQUIRE_NAME, 'webcrypto'],
  ])('%s with %j picks the %s back end', (_kind, args, code, expected) => {
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
