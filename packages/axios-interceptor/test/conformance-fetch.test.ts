import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { axiosDriver } from './helpers/axios-driver.js';

clientConformance(axiosDriver('fetch'));
