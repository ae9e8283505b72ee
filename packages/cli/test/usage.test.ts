import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, runCli, tempDir } from './helpers/run-cli.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.cleanup();
});

describe('usage errors exit 2 with a message that says what to do', () => {
  it.each([
    [['frobnicate'], 'Unknown command "frobnicate"'],
    [['decrypt', '--bogus'], 'Unknown option --bogus'],
    [['decrypt', '--kid', 'x'], '--kid is not an option of decrypt'],
    [['decrypt', 'a.json', 'b.json'], 'takes one input'],
    [['encrypt', '--file', '--raw'], 'Choose one of --json'],
    [['decrypt', '/nonexistent/envelope.json'], 'Cannot read "/nonexistent/envelope.json" (ENOENT)'],
    [['decrypt', '--key-file', '/nonexistent/key'], 'Cannot read the key file'],
    [['decrypt', '--key-env', 'NOT_SET_ANYWHERE'], 'NOT_SET_ANYWHERE'],
  ])('%j', async (args, message) => {
    const result = await runCli(args, { input: '{}', env: { JWE_KEY: KEY } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('asks for a key when none is given, naming all three ways', async () => {
    const result = await runCli(['decrypt'], { input: '{"iv":"","ciphertext":"","tag":""}' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ERR_KEY_MISSING');
    expect(result.stderr).toMatch(/--key-file[\s\S]*JWE_KEY[\s\S]*--key-env/);
  });

  it('reports a key of the wrong length without echoing it', async () => {
    const secret = 'fifteen-chars!!x-and-more';
    const result = await runCli(['encrypt', '--key-env', 'MY_KEY'], { input: '{}', env: { MY_KEY: secret } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ERR_KEY_INVALID');
    expect(result.stderr).toContain('25 bytes');
    expect(result.stderr).not.toContain(secret);
  });

  it('never echoes any part of a malformed key, even one that contains "="', async () => {
    const secret = 'Qz9=cdefghijklmnop';
    const result = await runCli(['decrypt'], { input: '{}', env: { JWE_KEY: secret } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ERR_KEY_INVALID');
    expect(result.stderr).not.toContain('Qz9');
    expect(result.stderr).not.toContain('cdefghijklmnop');
  });

  it('warns that --key lands in shell history, and still works', async () => {
    const result = await runCli(['encrypt', '--key', KEY], { input: '{}' });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('shell history');
    expect(result.stderr).not.toContain(KEY);
  });

  it('reads the key from a file with a trailing newline, and from a named variable', async () => {
    const keyFile = tmp.path('key.txt');
    await writeFile(keyFile, `${KEY}\n`);
    const encrypted = await runCli(['encrypt', '-k', keyFile], { input: '{"v":1}' });
    expect(encrypted.code).toBe(0);
    const decrypted = await runCli(['decrypt', '--key-env', 'SERVICE_KEY', '--json'], {
      input: encrypted.stdout,
      env: { SERVICE_KEY: KEY },
    });
    expect(JSON.parse(decrypted.stdout).payload.value).toEqual({ v: 1 });
  });

  it('reports usage errors as JSON when --json is asked for', async () => {
    const result = await runCli(['inspect', '--json', '--nope']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, error: { code: 'ERR_USAGE', exitCode: 2 } });
  });
});

describe('help and version', () => {
  it('prints help with examples for the tool and for each command, exit 0', async () => {
    const main = await runCli(['--help']);
    expect(main.code).toBe(0);
    for (const command of ['decrypt', 'encrypt', 'inspect', 'compact', 'expand'])
      expect(main.stdout).toContain(command);
    expect(main.stdout).toContain('Examples:');
    expect(main.stdout).toContain('Exit codes: 0');
    const inspect = await runCli(['inspect', '--help']);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain('Usage: jwe-transport inspect');
  });

  it('shows the help on stderr and exits 2 without a command', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: jwe-transport <command>');
  });

  it('prints the package version', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('uses no colour when stdout is not a terminal, and colour when forced', async () => {
    const plain = await runCli(['inspect'], {
      input: '{"iv":"AAAAAAAAAAAAAAAAAAAAAA","ciphertext":"","tag":""}',
    });
    expect(plain.stdout).not.toContain('\u001b[');
    const forced = await runCli(['inspect'], {
      input: '{"iv":"AAAAAAAAAAAAAAAAAAAAAA","ciphertext":"","tag":""}',
      env: { FORCE_COLOR: '1' },
    });
    expect(forced.stdout).toContain('\u001b[');
  });
});
