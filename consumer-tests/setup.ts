import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { machineNode, type NodeVersion, node24, npmCliPath } from './support/node-versions.js';
import { packAll } from './support/tarballs.js';
import { publishedPackages } from './support/workspace.js';

export interface ConsumerContext {
  /** A folder outside the workspace that holds the tarballs and every fresh project. */
  workDir: string;
  tarballs: Record<string, string>;
  nodes: { machine: NodeVersion; node24: NodeVersion };
  npmCli: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    consumer: ConsumerContext;
  }
}

// Packs once for every test file, and finds Node 24 once (npx may download it).
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workDir = await mkdtemp(join(tmpdir(), 'jwe-transport-consumer-'));
  const [tarballs, newer, npmCli] = await Promise.all([
    packAll(publishedPackages(), join(workDir, 'tarballs')),
    node24(),
    npmCliPath(),
  ]);
  const machine = machineNode();
  project.provide('consumer', { workDir, tarballs, nodes: { machine, node24: newer }, npmCli });
  return () => rm(workDir, { recursive: true, force: true });
}
