// Page entry: the fetch wrapper of @jwe-transport/client-core (see scenarios/fetch-wrapper.js).
import { createJweFetch } from '@jwe-transport/client-core';
import { runFetchWrapperScenarios } from '../../scenarios/fetch-wrapper.js';
import { publish } from '../../scenarios/kit.js';

publish('fetch-client-core', (config) => runFetchWrapperScenarios(createJweFetch, config));
