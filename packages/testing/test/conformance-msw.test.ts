import { useJwe } from '@jwe-transport/axios-interceptor';
import { createJweFetch, fileFromPath, wasDecrypted } from '@jwe-transport/client-core';
import { jwe } from '@jwe-transport/ky-plugin';
import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { axiosDriver } from '@jwe-transport/test-support/client-drivers/axios';
import { fetchDriver } from '@jwe-transport/test-support/client-drivers/fetch';
import { kyDriver } from '@jwe-transport/test-support/client-drivers/ky';
import ky from 'ky';
import { mswPeer } from './support/conformance-peers.js';

// The whole client conformance suite, as the adapters run it against a real server, against
// createJweHttp under setupServer: the fetch wrapper, ky 1 and axios with both Node adapters.
clientConformance(fetchDriver({ createJweFetch, fileFromPath, wasDecrypted }), mswPeer);
clientConformance(kyDriver('ky 1.x', ky, { jwe, wasDecrypted, fileFromPath }), mswPeer);
clientConformance(axiosDriver('http', useJwe), mswPeer);
clientConformance(axiosDriver('fetch', useJwe), mswPeer);
