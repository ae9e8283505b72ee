import { builtinModules } from 'node:module';

/** One `npm install` command of a README's shell blocks. */
export interface InstallLine {
  /** The line as written (without a `$ ` prompt). */
  text: string;
  /** Flags as written: `--save-dev`, `-g`. */
  flags: string[];
  /** Package specs as written: `@jwe-transport/testing`, `msw@2`. */
  specs: string[];
  global: boolean;
  /** From a trailing `# Node 20` (that major only) or `# Node 22 and later` comment. */
  nodes?: { min: number; max?: number };
}

/** Every `npm install` line of the README's ```sh blocks, comments after `#` aside. */
export function installLinesOf(readme: string): InstallLine[] {
  const blocks = [...readme.matchAll(/^```(?:sh|bash|shell|console)\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.flatMap((block) =>
    block.split('\n').flatMap((raw) => {
      const text = raw.replace(/^\$\s+/, '').trim();
      const [command = '', ...comment] = text.split(/\s#/);
      const words = command.trim().split(/\s+/);
      if (words[0] !== 'npm' || !['install', 'i', 'add'].includes(words[1] ?? '')) return [];
      const rest = words.slice(2);
      const flags = rest.filter((word) => word.startsWith('-'));
      const target = /\bNode(?:\.js)?\s+(\d+)(\s+(?:and|or)\s+later|\+)?/i.exec(comment.join('#'));
      return [
        {
          text,
          flags,
          specs: rest.filter((word) => !word.startsWith('-')),
          global: flags.includes('-g') || flags.includes('--global'),
          ...(target
            ? { nodes: { min: Number(target[1]), ...(target[2] ? {} : { max: Number(target[1]) }) } }
            : {}),
        },
      ];
    }),
  );
}

/** Whether a line is meant for a Node of this major. */
export function targets(line: InstallLine, major: number): boolean {
  return (
    !line.nodes || (major >= line.nodes.min && (line.nodes.max === undefined || major <= line.nodes.max))
  );
}

/** `msw@2` → `msw`; `@types/express@5` → `@types/express`. */
export function packageNameOf(spec: string): string {
  const at = spec.indexOf('@', 1);
  return at === -1 ? spec : spec.slice(0, at);
}

/** The major a spec names (`msw@2`, `ky@^1.9`, `undici@7.x`), or undefined (`msw`, `msw@latest`). */
export function namedMajor(spec: string): number | undefined {
  const at = spec.indexOf('@', 1);
  if (at === -1) return undefined;
  const major = /^[\^~]?(\d+)(?:\.[\dx*]+)*$/.exec(spec.slice(at + 1));
  return major ? Number(major[1]) : undefined;
}

/** The package a bare import specifier names (`msw/node` → `msw`), or undefined for Node's own. */
export function importedPackage(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) return undefined;
  if (specifier.startsWith('.') || specifier.startsWith('/')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The module specifiers a block imports (static and dynamic `import`, `import type` included). */
export function importsOf(code: string): string[] {
  return [
    ...code.matchAll(/^\s*import\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm),
    ...code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...code.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
}

/**
 * A block whose first line is `// ky 2.x` (any package name) is for that major of that package
 * only, as the ky plugin's README marks its examples.
 */
export function majorMarkOf(code: string): { name: string; major: number } | undefined {
  const mark = /^\/\/\s*(@?[\w./-]+)\s+(\d+)\.x\b/.exec(code);
  return mark ? { name: mark[1]!, major: Number(mark[2]) } : undefined;
}
