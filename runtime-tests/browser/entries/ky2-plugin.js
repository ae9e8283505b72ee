// Page entry: ky 2 with @jwe-transport/ky-plugin (see scenarios/ky.js).
import { jwe } from '@jwe-transport/ky-plugin';
import ky from 'ky2';
import { publish } from '../../scenarios/kit.js';
import { runKyScenarios } from '../../scenarios/ky.js';

publish('ky2-plugin', (config) => runKyScenarios(ky, jwe, 'prefix', config));
