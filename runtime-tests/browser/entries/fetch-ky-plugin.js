// Page entry: the fetch wrapper that @jwe-transport/ky-plugin exports (see scenarios/fetch-wrapper.js).
import { createJweFetch } from '@jwe-transport/ky-plugin';
import { runFetchWrapperScenarios } from '../../scenarios/fetch-wrapper.js';
import { publish } from '../../scenarios/kit.js';

publish('fetch-ky-plugin', (config) => runFetchWrapperScenarios(createJweFetch, config));
