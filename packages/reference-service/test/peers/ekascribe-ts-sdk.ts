// The requests of the service's JavaScript SDK (`@eka-care/ekascribe-ts-sdk` 2.1.x, the last
// releases on the v2 wire), sent the way it sends them. The package cannot be driven here: it is
// not on the npm registry these machines reach (`npm view @eka-care/ekascribe-ts-sdk@2.1.51`
// answers 404), and it is built for browsers (a SharedWorker uploads, voice-activity detection
// records). So this file re-creates, from its published source (eka-care/eka-js-sdk,
// `eka-sdk/ekascribe-v2rx`: fetch-client, api/post-v1-file-upload, api/upload-audio-with-presigned-url,
// api/transaction/post-transaction-init, api/transaction/get-voice-api-v3-status), exactly the
// requests it makes: the same URLs, methods, headers and bodies, through the same Web `fetch`,
// `Headers` and `FormData` a browser gives it.

export interface SdkSettings {
  /** The SDK's EKA_HOST; its v2 and v3 voice hosts are this plus `/voice/api/v2` and `/voice/api/v3`. */
  host: string;
  /** What the app passes as `access_token`; the SDK sends it as `auth: <token>`. */
  accessToken: string;
  /** The SDK's `clientId` option; left out, the SDK sends `client-id: doc-web`. */
  clientId?: string;
}

/** Every call goes through one wrapper that adds `client-id` and `auth` unless the call set them. */
function sdkFetch(settings: SdkSettings, url: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.get('client-id')) headers.set('client-id', settings.clientId ?? 'doc-web');
  if (!headers.get('auth') && settings.accessToken) headers.set('auth', settings.accessToken);
  return fetch(url, { ...init, headers });
}

export interface SdkGrant {
  uploadData: { url: string; fields: Record<string, string> };
  folderPath: string;
  txn_id: string;
}

/** Step 1: `POST /v1/file-upload?txn_id=&action=` with a JSON content type and the body `{}`. */
export function requestGrant(settings: SdkSettings, txnId: string, action = 'ekascribe-v2') {
  const headers = new Headers();
  headers.append('Content-Type', 'application/json');
  return sdkFetch(settings, `${settings.host}/v1/file-upload?txn_id=${txnId}&action=${action}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({}),
  });
}

/**
 * Step 2, one file: the granted fields with `key` replaced by `folderPath + name` (in the fields'
 * order), then the `file` part; a bare Blob, so the part's file name is the platform's "blob".
 * No `client-id` or `auth`: the SDK calls plain `fetch` for storage.
 */
export function uploadFile(grant: SdkGrant, name: string, audio: Blob) {
  const fields = { ...grant.uploadData.fields, key: grant.folderPath + name };
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', audio);
  return fetch(grant.uploadData.url, { method: 'POST', body: form });
}

export interface SdkInit {
  mode: string;
  transfer: string;
  input_language: string[];
  output_format_template: Record<string, unknown>[];
  model_type: string;
  model_training_consent?: boolean;
  auto_download?: boolean;
  system_info?: Record<string, unknown>;
  patient_details?: Record<string, unknown>;
  version?: string;
  flavour?: string;
  audio_file_names?: string[];
}

/**
 * Step 3: `POST /voice/api/v2/transaction/init/<txn>`. The SDK builds the body from its options,
 * with `s3_url` (undefined outside its vaded flow, so JSON leaves it out), `batch_s3_url` as
 * `uploadData.url + folderPath`, and the caller's file names as `client_generated_files`.
 */
export function initTransaction(settings: SdkSettings, txnId: string, batchUrl: string, init: SdkInit) {
  const headers = new Headers();
  headers.append('Content-Type', 'application/json');
  if (init.flavour) headers.set('flavour', init.flavour);
  const body = {
    mode: init.mode,
    s3_url: undefined,
    input_language: init.input_language,
    output_format_template: init.output_format_template,
    model_training_consent: init.model_training_consent,
    auto_download: init.auto_download,
    transfer: init.transfer,
    system_info: init.system_info,
    patient_details: init.patient_details,
    model_type: init.model_type,
    version: init.version,
    batch_s3_url: batchUrl,
    ...(init.audio_file_names ? { client_generated_files: init.audio_file_names } : {}),
  };
  return sdkFetch(settings, `${settings.host}/voice/api/v2/transaction/init/${txnId}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
}

/** Step 4: `GET /voice/api/v3/status/<txn>`, with a JSON content type even though a GET has no body. */
export function getStatus(settings: SdkSettings, txnId: string) {
  const headers = new Headers();
  headers.append('Content-Type', 'application/json');
  return sdkFetch(settings, `${settings.host}/voice/api/v3/status/${txnId}`, { method: 'GET', headers });
}
