import { PassThrough } from 'node:stream';
import { EXIT, run } from '@jwe-transport/cli';
import { isJweTransportError, JweTransportError } from '@jwe-transport/codec';
import { describe, expect, it } from 'vitest';
import { joseCEncrypt } from '../../../test-vectors/peers/index.mjs';
import { CliError } from '../src/cli-error.js';
import { KEY, utf8 } from './helpers/run-cli.js';

function collect(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString('utf8');
}

describe('the library entry: run(argv, io) in-process', () => {
  it('decrypts from the given stdin to the given stdout and resolves with the exit code', async () => {
    const envelope = await joseCEncrypt(KEY, utf8('{"from":"jose C"}'));
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = collect(stdout);
    stdin.end(JSON.stringify(envelope));
    const code = await run(['decrypt', '--json'], { stdin, stdout, stderr, env: { JWE_KEY: KEY } });
    expect(code).toBe(EXIT.OK);
    expect(JSON.parse(out())).toMatchObject({ ok: true, payload: { value: { from: 'jose C' } } });
  });

  it('resolves with 2 for a usage error instead of exiting the process', async () => {
    const stderr = new PassThrough();
    const err = collect(stderr);
    const code = await run(['decrypt', '--nope'], {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr,
      env: {},
    });
    expect(code).toBe(EXIT.USAGE);
    expect(err()).toContain('Unknown option --nope');
  });

  it('refuses to wait on a terminal when no input is given, instead of seeming to hang', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const stderr = new PassThrough();
    const err = collect(stderr);
    const code = await run(['inspect'], { stdin, stdout: new PassThrough(), stderr, env: {} });
    expect(code).toBe(EXIT.USAGE);
    expect(err()).toContain('No input');
  });

  it('reports CliErrors (internal to the package), which extend the JweTransportError base class and keep their code', () => {
    const error = new CliError('ERR_NOT_AN_ENVELOPE', 'not an envelope');
    expect(error).toBeInstanceOf(JweTransportError);
    expect(isJweTransportError(error)).toBe(true);
    expect(error.code).toBe('ERR_NOT_AN_ENVELOPE');
    expect(error.exitCode).toBe(EXIT.USAGE);
    expect(error.name).toBe('CliError');
  });
});
