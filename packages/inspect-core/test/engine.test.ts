import { encryptFile, encryptJson, isJweTransportError } from '@jwe-transport/codec';
import {
  DOC_KEY,
  DOC_PLAINTEXT,
  DOTNET_REQUEST,
  FULL_TAG_RESPONSE,
  JWCRYPTO_REQUEST,
} from '@jwe-transport/test-support/field-notes-samples';
import { describe, expect, it } from 'vitest';
import { outcomeLabel } from '../src/har-analysis.js';
import {
  analyzeHar,
  classifyInput,
  decryptedHar,
  InspectError,
  inspectEnvelope,
  keyFingerprint,
  parseKeyText,
  redactedHar,
} from '../src/index.js';

const OTHER_KEY = 'another-16-bytes';

describe('inspectEnvelope on the documentation samples', () => {
  it('opens both request samples with their key, over the protected header as sent', async () => {
    const keys = parseKeyText(DOC_KEY, 'the Keys field');
    for (const sample of [JWCRYPTO_REQUEST, DOTNET_REQUEST]) {
      const { report, payload } = await inspectEnvelope(sample, keys);
      expect(report.verification?.ok).toBe(true);
      expect(report.verification?.authenticatedAs).toBe('protected');
      expect(payload?.type).toBe('json');
      expect(payload?.type === 'json' && payload.value).toEqual(DOC_PLAINTEXT);
      expect(report.diagnostics).toEqual([]);
    }
  });

  it('diagnoses the 32-byte-tag response as an untruncated HMAC and does not call it verified', async () => {
    const { report } = await inspectEnvelope(FULL_TAG_RESPONSE, parseKeyText(DOC_KEY, 'k'));
    expect(report.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(['PROTECTED_MISSING', 'TAG_LENGTH']),
    );
    expect(report.verification?.ok).toBe(false);
    expect(report.parts.find((part) => part.name === 'tag')?.bytes).toBe(32);
  });

  it('with a wrong key lists what is ruled out and what remains, and never the key', async () => {
    const { report, payload } = await inspectEnvelope(JWCRYPTO_REQUEST, parseKeyText(OTHER_KEY, 'k'));
    expect(payload).toBeUndefined();
    expect(report.verification?.ok).toBe(false);
    expect(report.verification?.ruledOut.join(' ')).toMatch(/Key length/);
    expect(report.verification?.remaining.join(' ')).toMatch(/A different key/);
    expect(JSON.stringify(report)).not.toContain(OTHER_KEY);
  });

  it('says a kid named another key when a different listed key authenticates', async () => {
    const envelope = JSON.stringify(await encryptJson({ a: 1 }, DOC_KEY, { kid: 'old' }));
    const keys = parseKeyText(`old=${OTHER_KEY}\nnew=${DOC_KEY}`, 'k');
    const { report } = await inspectEnvelope(envelope, keys);
    expect(report.verification?.ok).toBe(true);
    expect(report.verification?.keyKid).toBe('new');
    expect(report.verification?.findings.join(' ')).toContain('not the key for kid "old"');
  });

  it('reports non-canonical base64url as such', async () => {
    const padded = JWCRYPTO_REQUEST.replace('"LW3ikoOIGvtDY4TeH_ezfg"', '"LW3ikoOIGvtDY4TeH_ezfg=="');
    const { report } = await inspectEnvelope(padded);
    expect(report.diagnostics.map((d) => d.code)).toContain('BASE64URL_NONCANONICAL');
  });
});

describe('classifyInput', () => {
  it('recognises flattened, compact, quoted log lines, HTTP messages and HAR documents', () => {
    expect(classifyInput(JWCRYPTO_REQUEST, 'x').kind).toBe('envelope');
    expect(classifyInput(JSON.stringify(JWCRYPTO_REQUEST), 'x').kind).toBe('envelope');
    expect(classifyInput('eyJh.x.aaaa.bbbb.cccc', 'x').kind).toBe('compact');
    const http = classifyInput(`POST /v1/x HTTP/1.1\r\nX-Encryption: JWE\r\n\r\n${JWCRYPTO_REQUEST}`, 'x');
    expect(http.kind === 'http' && http.message.method).toBe('POST');
    expect(classifyInput('{"log":{"entries":[]}}', 'x').kind).toBe('har');
    expect(() => classifyInput('hello', 'The input')).toThrow(InspectError);
    let thrown: unknown;
    try {
      classifyInput('hello', 'The input');
    } catch (error) {
      thrown = error;
    }
    expect(isJweTransportError(thrown)).toBe(true);
    expect((thrown as InspectError).code).toBe('ERR_NOT_AN_ENVELOPE');
  });
});

describe('keys', () => {
  it('reads kid=key lists and the doubled 32-character key, and fingerprints without revealing', async () => {
    const listed = parseKeyText(`# rotation\na=${DOC_KEY}, b=${OTHER_KEY}`, 'k');
    expect(listed.entries.map((entry) => entry.kid)).toEqual(['a', 'b']);
    const doubled = parseKeyText(`${DOC_KEY}${DOC_KEY}`, 'k');
    expect(doubled.notices[0]).toMatch(/already doubled/);
    const fingerprint = await keyFingerprint(doubled.entries[0]!.key);
    expect(fingerprint).toMatch(/^[0-9a-f]{8}$/);
    expect(fingerprint).toBe(await keyFingerprint(listed.entries[0]!.key));
    expect(fingerprint).not.toBe(await keyFingerprint(listed.entries[1]!.key));
    expect(() => parseKeyText('short', 'the Keys field')).toThrow(/exactly 16 bytes/);
  });
});

describe('HAR analysis and exports', () => {
  it('gives each body an outcome and exports decrypted and redacted copies', async () => {
    const good = JSON.stringify(await encryptJson({ email: 'a.person@example.com' }, DOC_KEY, { kid: 'k1' }));
    const file = JSON.stringify(
      await encryptFile(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 1]), DOC_KEY),
    );
    const wrong = JSON.stringify(await encryptJson({ x: 1 }, OTHER_KEY));
    const entry = (url: string, body: string, response: string) => ({
      request: {
        method: 'POST',
        url,
        headers: [
          { name: 'Authorization', value: 'Bearer secret-token' },
          { name: 'X-Encryption', value: 'JWE' },
        ],
        cookies: [{ name: 'sid', value: 'abc' }],
        queryString: [{ name: 'token', value: 't' }],
        postData: { mimeType: 'application/json', text: body },
      },
      response: {
        status: 200,
        headers: [],
        cookies: [],
        content: { size: 2, mimeType: 'application/json', text: response },
      },
    });
    const har = {
      log: {
        entries: [
          entry('https://api.test/a?token=t', good, '{"ok":true}'),
          entry('https://api.test/b', wrong, ''),
          entry('https://api.test/c', file, ''),
        ],
      },
    };
    const analysis = await analyzeHar(har, parseKeyText(`k1=${DOC_KEY}`, 'k'));
    const [first, second, third] = analysis.rows;
    expect(first?.path).toBe('https://api.test/a');
    expect(first?.request).toMatchObject({ kind: 'decrypted', kid: 'k1' });
    expect(first?.response.kind).toBe('plain');
    expect(second?.request).toMatchObject({ kind: 'failed', code: 'ERR_JWE_DECRYPTION_FAILED' });
    expect(second?.response.kind).toBe('none');
    expect(third?.request.kind === 'decrypted' && third.request.payload.type).toBe('file');

    const decrypted = decryptedHar(har, analysis) as typeof har;
    expect(JSON.parse(decrypted.log.entries[0]!.request.postData.text)).toEqual({
      email: 'a.person@example.com',
    });
    expect(decrypted.log.entries[1]!.request.postData.text).toBe(wrong);
    expect(JSON.parse(decrypted.log.entries[2]!.request.postData.text)).toHaveProperty('file');
    const masked = decryptedHar(har, analysis, { mask: true }) as typeof har;
    expect(masked.log.entries[0]!.request.postData.text).toContain('•••@example.com');

    const redacted = JSON.stringify(redactedHar(har));
    for (const secret of ['secret-token', 'token=t', '"sid"', good.slice(20, 60), '"ok":true'])
      expect(redacted).not.toContain(secret);
    expect(redacted).toContain('https://api.test/a');
    expect(har.log.entries[0]!.request.headers[0]!.value).toBe('Bearer secret-token');
  });
});

describe('HAR analysis of a kid that names another key than the one that opens it', () => {
  it('marks the outcome, labels it with both kids and carries the warning', async () => {
    const misnamed = JSON.stringify(await encryptJson({ a: 1 }, DOC_KEY, { kid: 'old' }));
    const named = JSON.stringify(await encryptJson({ a: 2 }, DOC_KEY, { kid: 'new' }));
    const entry = (url: string, body: string) => ({
      request: {
        method: 'POST',
        url,
        headers: [{ name: 'X-Encryption', value: 'JWE' }],
        postData: { text: body },
      },
      response: { status: 200, headers: [], content: { text: '' } },
    });
    const har = {
      log: { entries: [entry('https://api.test/a', misnamed), entry('https://api.test/b', named)] },
    };
    const analysis = await analyzeHar(har, parseKeyText(`old=${OTHER_KEY}\nnew=${DOC_KEY}`, 'k'));
    const [wrong, right] = analysis.rows.map((row) => row.request);
    expect(wrong).toMatchObject({ kind: 'decrypted', kid: 'old', keyKid: 'new', kidMismatch: true });
    expect(wrong?.kind === 'decrypted' && wrong.warning).toBe(
      'The envelope names kid "old" but authenticated with the key listed as "new": ' +
        'the sender sealed it with another key than the one its kid names.',
    );
    expect(outcomeLabel(wrong!)).toBe('decrypted with the key listed as "new", not kid "old"');
    expect(right).toMatchObject({
      kind: 'decrypted',
      kid: 'new',
      keyKid: 'new',
      kidMismatch: false,
      warning: null,
    });
    expect(outcomeLabel(right!)).toBe('decrypted with kid "new"');
  });
});

describe('log lines', () => {
  it('finds an envelope in a log line: as JSON, escaped inside a quoted string, or as a compact token', async () => {
    const keys = parseKeyText(DOC_KEY, 'k');
    const escaped = JSON.stringify({ level: 'info', body: JWCRYPTO_REQUEST });
    const compact =
      'eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0..oAvH6vVV_UYK7vrYsj2b8A.T0jZQGWh6WP_TMz_1aUyqm06FGxi8FdQVK-0eleFDD7OBhxr3Bt2a1gt4OtbpuSn.LW3ikoOIGvtDY4TeH_ezfg';
    for (const line of [
      `2026-11-26T10:00:00Z WARN upstream 400 body=${JWCRYPTO_REQUEST} took=42ms`,
      `2026-11-26T10:00:00Z ${escaped}`,
      `curl -d '${compact}' -H 'X-Encryption: JWE'`,
    ]) {
      const input = classifyInput(line, 'The log line');
      expect(input.kind === 'envelope' || input.kind === 'compact').toBe(true);
      const text = input.kind === 'envelope' || input.kind === 'compact' ? input.text : '';
      const { payload } = await inspectEnvelope(text, keys);
      expect(payload?.type === 'json' && payload.value).toEqual(DOC_PLAINTEXT);
    }
    expect(() => classifyInput('2026-11-26 INFO nothing {"a": 1} here', 'The log line')).toThrow(
      /not an envelope/,
    );
  });
});
