/**
 * `@jwe-transport/axios-interceptor`: JWE request and response encryption for axios (browser build).
 * @packageDocumentation
 */
import type { AxiosInstance } from 'axios';
import { webPlatform } from './platform.js';
import { installJwe, type JweAxiosOptions } from './use-jwe.js';

export type { JweAxiosOptions } from './use-jwe.js';

/**
 * Installs JWE request and response interceptors on `instance` and returns a function that
 * removes them again. See the README for options and errors.
 */
export function useJwe(instance: AxiosInstance, options: JweAxiosOptions): () => void {
  return installJwe(instance, options, webPlatform);
}
