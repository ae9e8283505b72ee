import { BUCKET } from './storage-policy.js';

/**
 * The two documented spellings of a transaction's storage folder in the start body: the
 * documented construction `uploadData.url + folderPath`, and the documented example
 * `s3://<bucket>/<folderPath>` that one of the service's SDKs sends.
 */
export function folderLocations(storageUrl: string, folder: string): string[] {
  return [`${storageUrl}${folder}`, `s3://${BUCKET}/${folder}`];
}

/**
 * The uploaded file a `client_generated_files` entry names: a bare name, or a full URL of a file
 * in the transaction's folder (either spelling above). Undefined for a URL of anywhere else.
 */
export function fileNameOf(entry: string, locations: readonly string[]): string | undefined {
  if (!entry.includes('/')) return entry;
  const location = locations.find((prefix) => entry.startsWith(prefix));
  if (location === undefined) return undefined;
  const name = entry.slice(location.length);
  return name === '' || name.includes('/') ? undefined : name;
}
