// Helpers shared by the client scenarios, which run in Chromium (bundled), Deno and Bun alike:
// only web platform APIs here. Each scenario answers plain data that the Node test then checks.

export const REGISTRATION = 'abdm/na/v1/registration/aadhaar/init';
export const DOCS = 'mr/api/v2/docs';
export const AADHAAR = '999941057058';

/** A 70,001-byte "PDF" made in the page: every byte value, so base64 and padding are exercised. */
export function sampleBlob() {
  const bytes = new Uint8Array(70_001);
  for (let at = 0; at < bytes.length; at++) bytes[at] = (at * 7 + 3) & 255;
  bytes.set(new TextEncoder().encode('%PDF-1.4\n'));
  return new Blob([bytes], { type: 'application/pdf' });
}

export async function sha256Hex(blob) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer()));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** What an error looked like in the page, as data that survives the trip back to the test. */
export function describeError(error) {
  return {
    name: error?.name,
    code: error?.code,
    status: error?.status ?? error?.response?.status,
    message: String(error?.message ?? error),
  };
}

/** Runs one scenario and reports its result or the error it threw. */
export async function outcome(scenario) {
  try {
    return { ok: true, value: await scenario() };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

/** The facts a page reports about itself: its origin, and that no Node globals came along. */
export function pageFacts() {
  return {
    origin: globalThis.location?.origin,
    hasProcess: typeof globalThis.process !== 'undefined',
    hasBuffer: typeof globalThis.Buffer !== 'undefined',
  };
}

/** Makes `run` callable from the test through Playwright, as `window.jweScenarios.run(config)`. */
export function publish(name, run) {
  globalThis.jweScenarios = {
    name,
    run: async (config) => {
      const result = { page: pageFacts(), ...(await run(config)) };
      show(name, result);
      return result;
    },
  };
}

/** Writes the results into the page too, for a person looking at it (or at a screenshot). */
function show(name, result) {
  const heading = document.createElement('h1');
  heading.textContent = `jwe-transport: ${name}`;
  const details = document.createElement('pre');
  details.textContent = JSON.stringify(result, null, 2);
  document.body.replaceChildren(heading, details);
}

/** Runs a call that may end in an HTTP error (ky's HTTPError, axios's AxiosError) as an answer. */
export async function answerOf(call) {
  try {
    return await call();
  } catch (error) {
    const response = error?.response;
    if (!response) throw error;
    // ky 2 has read the body into `error.data`; ky 1 leaves it in the fetch Response; axios
    // puts the parsed body in `response.data`.
    const body =
      'data' in error
        ? error.data
        : typeof response.json === 'function'
          ? await response.json()
          : response.data;
    return { status: response.status, body };
  }
}
