#!/usr/bin/env node
// Checks the links of every committed Markdown file without touching the network: a relative link
// (or one to this repository on GitHub) must name a file that exists, and a `#anchor` must name a
// heading (GitHub's slug) or an HTML id of the Markdown file it points into. Links to other sites
// are left alone. Usage: node scripts/check-links.mjs [file.md ...] (default: `git ls-files '*.md'`).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Links to this repository's own tree on GitHub are checked as relative links. */
const OWN_REPO = /^https:\/\/github\.com\/jwe-transport\/jwe-transport\/(?:tree|blob)\/main\/([^#?]*)(#.*)?$/;

/** The lines of a Markdown text outside fenced code blocks, with their line numbers. */
function proseLines(markdown) {
  const lines = [];
  let fence = null;
  markdown.split('\n').forEach((line, index) => {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && opening) fence = opening[1];
    else if (fence !== null && opening && opening[1][0] === fence[0] && opening[1].length >= fence.length)
      fence = null;
    else if (fence === null) lines.push({ line, number: index + 1 });
  });
  return lines;
}

/** Inline code spans removed, so that `[a](b)` inside backticks is not taken for a link. */
const withoutCode = (line) => line.replace(/(`+)[\s\S]*?\1/g, (span) => ' '.repeat(span.length));

/** GitHub's anchor for a heading: its text as shown, lower case, punctuation dropped, spaces as hyphens. */
export function slugify(heading) {
  const shown = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .replace(/(^|\s)_+|_+(\s|$)/g, '$1$2')
    .trim();
  return shown
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown text defines: its headings' slugs (repeats numbered as GitHub does) and HTML ids. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  for (const { line } of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+\s*)?$/.exec(line);
    if (heading) {
      const slug = slugify(heading[1]);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const html of line.matchAll(/<[a-z][^>]*\s(?:id|name)="([^"]+)"/gi)) anchors.add(html[1]);
  }
  return anchors;
}

/** Every link target of a Markdown text (inline links, images, reference definitions) with its line. */
export function linksOf(markdown) {
  const links = [];
  for (const { line, number } of proseLines(markdown)) {
    const prose = withoutCode(line);
    for (const match of prose.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1].replace(/^<|>$/g, ''), line: number });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(prose);
    if (definition) links.push({ target: definition[1].replace(/^<|>$/g, ''), line: number });
    for (const match of prose.matchAll(/<a\s[^>]*href="([^"]+)"/gi))
      links.push({ target: match[1], line: number });
  }
  return links;
}

/** What is wrong with one link of `file` (a path relative to `root`), or null when it resolves. */
export function problemOf(file, target, root, read) {
  const own = OWN_REPO.exec(target);
  let path;
  let anchor;
  if (own) {
    path = join(root, decodeURIComponent(own[1]));
    anchor = own[2]?.slice(1);
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) {
    return null;
  } else {
    const hash = target.indexOf('#');
    const pathPart = (hash === -1 ? target : target.slice(0, hash)).split('?')[0];
    anchor = hash === -1 ? undefined : target.slice(hash + 1);
    path = pathPart === '' ? join(root, file) : join(root, dirname(file), decodeURIComponent(pathPart));
  }
  if (!existsSync(path)) return `no file ${relative(root, path) || '.'}`;
  if (anchor === undefined || anchor === '') return null;
  if (statSync(path).isDirectory() || !path.endsWith('.md')) return null;
  const anchors = anchorsOf(read(path));
  if (anchors.has(decodeURIComponent(anchor))) return null;
  return `no heading or id "#${anchor}" in ${relative(root, path)}`;
}

/** Every broken link of `files` (paths relative to `root`), as `file:line: target: problem`. */
export function brokenLinks(files, root = ROOT) {
  const cache = new Map();
  const read = (path) => {
    if (!cache.has(path)) cache.set(path, readFileSync(path, 'utf8'));
    return cache.get(path);
  };
  const broken = [];
  for (const file of files) {
    for (const { target, line } of linksOf(read(join(root, file)))) {
      const problem = problemOf(file, target, root, read);
      if (problem) broken.push(`${file}:${line}: ${target}: ${problem}`);
    }
  }
  return broken;
}

function committedMarkdown() {
  const listed = execFileSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\0').filter((file) => file !== '' && existsSync(join(ROOT, file)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files =
    process.argv.length > 2
      ? process.argv.slice(2).map((file) => relative(ROOT, resolve(file)))
      : committedMarkdown();
  const broken = brokenLinks(files);
  for (const line of broken) process.stderr.write(`${line}\n`);
  if (broken.length > 0) {
    process.stderr.write(`${broken.length} broken link(s) in ${files.length} Markdown files.\n`);
    process.exit(1);
  }
  process.stdout.write(`Links: ${files.length} Markdown files, no broken link.\n`);
}
