/**
 * `@jwe-transport/axios-interceptor`: JWE request and response encryption for axios (Node.js build).
 * @packageDocumentation
 */
import type { AxiosInstance } from 'axios';
import { nodePlatform } from './platform.node.js';
import { installJwe, type JweAxiosOptions } from './use-jwe.js';

export type { JweAxiosOptions } from './use-jwe.js';

/**
 * Installs JWE request and response interceptors on `instance` and returns a function that
 * removes them again. On Node.js, large files stream with axios's http and fetch adapters.
 */
export function useJwe(instance: AxiosInstance, options: JweAxiosOptions): () => void {
  return installJwe(instance, options, nodePlatform);
}
