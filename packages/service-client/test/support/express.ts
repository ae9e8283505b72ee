import { createServer } from 'node:http';
import type { RunningServer } from '@jwe-transport/test-support/server-conformance/adapter';
import { listenLocal } from '@jwe-transport/test-support/server-conformance/listen';
import express, { type ErrorRequestHandler, type Express } from 'express';
import express4 from 'express4';

/** Both Express majors; every receiver test runs against each. */
export const EXPRESS_VERSIONS = [
  { name: 'Express 5', create: () => express() as Express, json: express.json },
  { name: 'Express 4', create: () => express4() as unknown as Express, json: express4.json },
] as const;

/** Renders refusals as body-parser-style JSON errors, as an application's error handler would. */
export const errorAsJson: ErrorRequestHandler = (error, _req, res, _next) => {
  const {
    status = 500,
    type,
    code,
    message,
    expose,
  } = error as {
    status?: number;
    type?: string;
    code?: string;
    message: string;
    expose?: boolean;
  };
  res.status(status).json({ error: { type, code, message: expose ? message : 'Internal error' } });
};

export type Running = RunningServer;

/** Serves `app` on 127.0.0.1 with a port the OS picks. */
export const listen = (app: Express): Promise<Running> => listenLocal(createServer(app));
