import { fileFromPath, wasDecrypted } from '@jwe-transport/client-core';
import { jwe } from '@jwe-transport/ky-plugin';
import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { type KyLike, kyDriver } from '@jwe-transport/test-support/client-drivers/ky';
import ky2 from 'ky2';
import { mswPeer } from './support/conformance-peers.js';

// ky 2 (Node >= 22) through the whole client conformance suite against createJweHttp.
clientConformance(kyDriver('ky 2.x', ky2 as unknown as KyLike, { jwe, wasDecrypted, fileFromPath }), mswPeer);
