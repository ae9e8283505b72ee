// The fetch wrapper against the client conformance suite (the driver is shared: the testing kit
// runs it against its MSW handlers too).
import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { fetchDriver } from '@jwe-transport/test-support/client-drivers/fetch';
import { createJweFetch, fileFromPath, wasDecrypted } from '../src/index.node.js';

clientConformance(fetchDriver({ createJweFetch, fileFromPath, wasDecrypted }));
