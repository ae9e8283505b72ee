import { describeClientCases } from './support/client-cases.js';
import { axiosClient, fetchClient, kyClient } from './support/clients.js';

// The fetch wrapper, ky 1 and axios (both Node adapters) against createJweHttp under setupServer (see client-cases.ts).
describeClientCases({
  'the fetch wrapper (client-core)': fetchClient,
  'ky 1 with the ky plugin': kyClient,
  'axios (http adapter) with the interceptor': (keys) => axiosClient(keys, 'http'),
  'axios (fetch adapter) with the interceptor': (keys) => axiosClient(keys, 'fetch'),
});
