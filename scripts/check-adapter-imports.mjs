// Part of `pnpm deps:check`: no adapter seals with the codec itself. Servers seal through
// server-core's engine and clients through client-core, the one place each side publishes
// `jwe-transport:seal`. dependency-cruiser sees modules, not names, so the names are read here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ADAPTERS = [
  'express-middleware',
  'fastify-plugin',
  'hono-middleware',
  'ky-plugin',
  'undici-interceptor',
  'axios-interceptor',
];
const root = new URL('..', import.meta.url).pathname;
const sealing = /^encrypt/i;

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|mts|cts|js|mjs)$/.test(entry.name)) yield path;
  }
}

const problems = [];
for (const adapter of ADAPTERS) {
  for (const file of sources(join(root, 'packages', adapter, 'src'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const where = (node) =>
      `${file.slice(root.length)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const fromCodec = (specifier) =>
      ts.isStringLiteral(specifier) && specifier.text.startsWith('@jwe-transport/codec');
    const visit = (node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        fromCodec(node.moduleSpecifier)
      ) {
        const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
        if (bindings === undefined || ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)) {
          problems.push(`${where(node)}: imports the whole codec; import the names it uses (never encrypt*)`);
        } else {
          for (const element of bindings.elements) {
            const name = (element.propertyName ?? element.name).text;
            if (sealing.test(name))
              problems.push(`${where(node)}: seals with the codec's ${name}; go through the core`);
          }
        }
      }
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        fromCodec(node.arguments[0])
      ) {
        problems.push(
          `${where(node)}: imports the codec dynamically; import the names it uses (never encrypt*)`,
        );
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}
if (problems.length > 0) {
  console.error(`Adapters that seal with the codec directly:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`✔ no adapter imports the codec's sealing functions (${ADAPTERS.length} adapters)`);
