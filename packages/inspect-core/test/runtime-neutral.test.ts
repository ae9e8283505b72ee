import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

describe('the engine is runtime-neutral', () => {
  it('imports no Node built-in and uses no Node global, so browsers and workers can run it', async () => {
    const dir = new URL('../src/', import.meta.url);
    const files = (await readdir(dir)).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    for (const name of files) {
      const source = await readFile(new URL(name, dir), 'utf8');
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, name).not.toMatch(/from ['"](?:node:|fs|path|crypto|stream|buffer)['"/]/);
      expect(code, name).not.toMatch(/\b(?:Buffer|process|require)\s*[.(]/);
    }
  });
});
