import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 with a port the OS picks. */
export function listen(app: Express): Promise<Running> {
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(0, '127.0.0.1');
    server.once('error', reject);
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
