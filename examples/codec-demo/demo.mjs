// A codec round trip with no HTTP: what goes on the wire and what comes back out.
import {
  backendName,
  decryptDetailed,
  decryptFile,
  decryptJson,
  encryptFile,
  encryptJson,
  toCompact,
} from '@jwe-transport/codec';

const sharedKey = process.env.JWE_KEY ?? 'demo-key-16-chrs'; // 16 UTF-8 bytes, doubled into the 32-byte key
const kid = 'demo-kid';

console.log(`@jwe-transport/codec, ${backendName} back end\n`);

const body = { aadhaar_number: '123412341234' };
const envelope = await encryptJson(body, sharedKey, { kid });
console.log('1. JSON body (spec 4.2) as it goes on the wire with X-Encryption: JWE:');
console.log(JSON.stringify(envelope, null, 2));
console.log('\n   compact form:', toCompact(envelope));
console.log('   decrypted:', await decryptJson(envelope, sharedKey));

const file = new TextEncoder().encode('%PDF-1.7 a tiny pretend document\n');
const fileEnvelope = await encryptFile(file, sharedKey, { kid });
console.log(
  '\n2. File upload (spec 4.3): plaintext {"file": "<base64>"}, envelope ciphertext is',
  `${fileEnvelope.ciphertext.length} characters`,
);
const back = await decryptFile(fileEnvelope, sharedKey);
console.log('   decrypted file bytes:', JSON.stringify(new TextDecoder().decode(back)));

const { protected: _omitted, ...response } = await encryptJson({ status: 'ok' }, sharedKey);
const result = await decryptDetailed(response, sharedKey);
console.log('\n3. A response envelope without "protected" (as the service documents them):');
console.log(
  '   decrypted:',
  new TextDecoder().decode(result.plaintext),
  `(tag matched: ${result.headerSource})`,
);
