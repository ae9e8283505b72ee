import { jweInfo, withJwe } from '@jwe-transport/server-core';
import { withJweUpload } from '@jwe-transport/server-core/node';
import type { ConformanceAdapter } from '@jwe-transport/test-support/server-conformance';
import { serveFetch } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { sha256 } from '@jwe-transport/test-support/server-conformance/wire';

const quiet = () => {};

/** Plain Web-standard handlers wrapped in withJwe / withJweUpload, as a Next.js app would write them. */
export const webAdapter: ConformanceAdapter = {
  name: 'withJwe (Web Request/Response)',
  start(setup) {
    const shared = {
      keys: setup.keys,
      onError: quiet,
      ...(setup.missingProtected ? { missingProtected: setup.missingProtected } : {}),
    };
    const routes = withJwe(
      async (request) => {
        const { pathname } = new URL(request.url);
        if (pathname === '/echo') {
          const info = jweInfo(request);
          return Response.json({ body: await request.json(), encrypted: info?.encrypted, kid: info?.kid });
        }
        if (pathname === '/hello') return Response.json({ hello: 'world' });
        if (pathname === '/fail') throw new Error('internal detail');
        return new Response('Not Found', { status: 404 });
      },
      { ...shared, limit: setup.limit },
    );
    const disk = withJweUpload((_request, file) => Response.json({ size: file.size, path: file.path }), {
      ...shared,
      ...setup.upload,
    });
    const memory = withJweUpload(
      (_request, file) => Response.json({ size: file.size, sha256: sha256(file.buffer ?? new Uint8Array()) }),
      { ...shared, limit: setup.memoryUpload.limit },
    );
    return serveFetch((request) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/upload') return disk(request);
      if (pathname === '/upload-memory') return memory(request);
      return routes(request);
    });
  },
};
