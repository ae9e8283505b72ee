import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { axiosDriver } from '@jwe-transport/test-support/client-drivers/axios';
import { useJwe } from '../src/index.node.js';

clientConformance(axiosDriver('fetch', useJwe));
