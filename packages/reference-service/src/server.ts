import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServiceApp } from './app.js';
import type { ServiceConfig } from './config.js';
import { DocumentStore } from './document-store.js';
import { createWorkflow, type Workflow } from './workflow/index.js';

export interface RunningService {
  url: string;
  store: DocumentStore;
  workflow: Workflow;
  close(): Promise<void>;
}

/** Starts the service on 127.0.0.1 (port 0 picks a free one) and resolves once it listens. */
export async function startService(
  config: ServiceConfig,
  options: { log?: (line: string) => void } = {},
): Promise<RunningService> {
  const store = await new DocumentStore(config.docsDir).open();
  const workflow = await createWorkflow({
    storageDir: join(config.docsDir, 'audio'),
    ...config.workflow,
    keys: config.keys,
    ...(options.log ? { log: options.log } : {}),
  });
  const app = createServiceApp(config, store, workflow, options);
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(config.port, '127.0.0.1');
    listening.once('listening', () => resolve(listening));
    listening.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    workflow,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await workflow.close();
    },
  };
}
