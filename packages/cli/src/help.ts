import type { CommandName } from './options.js';

const KEYS = `Keys (never echoed):
  -k, --key-file PATH   file holding the 16-character shared key, or kid=key lines
      --key-env NAME    environment variable holding it (default JWE_KEY)
      --key KEY         the key itself (warns: it lands in shell history)
  A list of several keys is written kid=key, one per line or separated by commas.`;

const NO_COLOR_AND_HELP = `      --no-color        no colour (colour is used only on a terminal; NO_COLOR works too)
  -h, --help            this help`;

const COMMON = `Common options:
      --json            machine-readable JSON on stdout
${NO_COLOR_AND_HELP}`;

const ENCRYPT_COMMON = `Common options:
${NO_COLOR_AND_HELP}
The output is the envelope itself, already JSON, so --json here selects the input type.`;

const EXIT_CODES = `Exit codes: 0 success, 1 verification or decryption failed, 2 usage or input error.`;

export const MAIN_HELP = `jwe-transport: read, check and make the service's JWE envelopes (dir + A128CBC-HS256).

Usage: jwe-transport <command> [FILE|-] [options]

Commands:
  decrypt   decrypt an envelope, a compact JWE, a captured HTTP message or a HAR file
  encrypt   make an envelope from a JSON body (default), a file upload (--file) or raw bytes (--raw)
  inspect   show the header, part lengths and diagnostics; with a key, verify and explain failures
  compact   flattened JSON envelope -> compact protected..iv.ciphertext.tag
  expand    compact JWE -> flattened JSON envelope
  web       serve the envelope inspector page on 127.0.0.1 and open it in a browser
  proxy     let curl, HTTPie, Postman or an app speak the encrypted API, and watch every exchange

FILE is read from standard input when it is - or left out.

${KEYS}

${COMMON}
  -v, --version         the version

Examples:
  export JWE_KEY="$(cat ~/.svc.key)"     # the 16-character shared key
  jwe-transport decrypt captured-body.json
  pbpaste | jwe-transport decrypt
  jwe-transport decrypt session.har --key-file keys.txt
  jwe-transport inspect response.json
  jwe-transport encrypt body.json --kid k1 > envelope.json
  jwe-transport encrypt --file report.pdf --out upload.json
  jwe-transport web

${EXIT_CODES}
Run jwe-transport <command> --help for the options of a command.
`;

const COMMAND_HELP: Record<CommandName, string> = {
  decrypt: `Usage: jwe-transport decrypt [FILE|-] [options]

Decrypts what FILE holds, recognising it by its shape:
  - a flattened JSON envelope {"protected","iv","ciphertext","tag","kid"} (also without "protected")
  - a compact JWE protected..iv.ciphertext.tag
  - a captured HTTP message (start line, headers, blank line, envelope body)
  - a HAR file: every request and response marked X-Encryption: JWE or whose body is an envelope,
    shown with method, URL and status
JSON plaintext is pretty-printed. A file upload {"file": base64} is described (type, size, SHA-256);
pass --out to save its bytes. Envelopes over 8 MiB stream: file bytes go to --out only after the tag
verifies, and without --out only their type, size and SHA-256 are shown.

Options:
  -o, --out PATH        save the file bytes (or the plaintext) to PATH; for a HAR file, a directory
  -f, --force           overwrite PATH if it exists
      --raw             the plaintext bytes exactly as encrypted, even for file uploads

${KEYS}

${COMMON}

Examples:
  jwe-transport decrypt body.json
  jwe-transport decrypt upload.json --out scan.pdf
  jwe-transport decrypt session.har --json | jq '.bodies[] | select(.ok | not)'
  curl -si https://api.example/... | jwe-transport decrypt -

${EXIT_CODES}
`,
  encrypt: `Usage: jwe-transport encrypt [FILE|-] [options]

Makes a flattened JSON envelope (kid, protected, iv, ciphertext, tag) with a fresh random IV.
  --json (default)   FILE is a JSON body, encrypted byte for byte as it is
  --file             FILE is any file, sent as the upload payload {"file": "<base64>"}
  --raw              FILE's bytes are the plaintext, unchecked
Inputs over 8 MiB stream, in constant memory, as a JSON envelope.

Options:
      --kid KID         the kid to send (and, with a kid=key list, the key to use)
      --compact         print the compact form protected..iv.ciphertext.tag (has no kid)
  -o, --out PATH        write the envelope to PATH instead of stdout
  -f, --force           overwrite PATH if it exists

${KEYS}

${ENCRYPT_COMMON}

Examples:
  echo '{"aadhaar_number":"123412341234"}' | jwe-transport encrypt --kid k1
  jwe-transport encrypt --file scan.pdf --out upload.json
  jwe-transport encrypt body.json --compact

${EXIT_CODES}
`,
  inspect: `Usage: jwe-transport inspect [FILE|-] [options]

Works without a key. Shows the decoded protected header, the kid, the length of every part, and
diagnostics: a missing protected header and what it means, a tag that is not 16 bytes (a 32-byte
tag is usually the full, untruncated HMAC-SHA-256), the IV length, the ciphertext length,
non-canonical base64url, unsupported alg or enc, unexpected members.
With a key it also verifies; when verification fails it lists the causes it ruled out (key length,
header encoding variants, missing protected header, untruncated tag, other listed keys) and the
causes that remain. A HAR file is inspected body by body.

${KEYS}

${COMMON}

Examples:
  jwe-transport inspect response.json
  jwe-transport inspect response.json --key-file key.txt
  jwe-transport inspect session.har --json

Exit codes: 0 inspected (and, with a key, verified), 1 a key was given and verification failed,
2 usage or unreadable input.
`,
  compact: `Usage: jwe-transport compact [FILE|-] [options]

Converts a flattened JSON envelope to the compact form protected..iv.ciphertext.tag. Compact JWE has
no place for the top-level kid; it is reported on stderr (and in --json output).

Options:
  -o, --out PATH        write to PATH instead of stdout
  -f, --force           overwrite PATH if it exists

${COMMON}

Example:
  jwe-transport compact envelope.json

${EXIT_CODES}
`,
  web: `Usage: jwe-transport web [options]

Serves the envelope inspector, one self-contained page, on 127.0.0.1 and opens it in your browser.
The page does in the browser what decrypt and inspect do here, HAR files included, and its
Content-Security-Policy forbids it every network request; keys stay in the page's memory. The server
answers only requests addressed to its own host and port, and stops with Ctrl-C.

Options:
      --port N          the port to listen on (default 0: any free port)
      --no-open         print the URL but do not start a browser
      --json            print {"url": ...} on stdout
  -h, --help            this help

Example:
  npx -p @jwe-transport/cli jwe-transport web
`,
  proxy: `Usage: jwe-transport proxy --upstream URL [options]

Listens on 127.0.0.1 and forwards every request to one upstream origin (http or https), in one of
two modes:

  sealing (default)  Tools send plaintext: plain JSON bodies, and file uploads as multipart (-F) or
                     raw bytes. The proxy seals them as the service expects (X-Encryption: JWE; JSON
                     as it is, a file as {"file": "<base64>"}, streamed when large), opens the sealed
                     answer and hands back the plaintext, marked x-jwe-decrypted: <kid>. Sealed
                     errors are opened too. A plain 2xx answer to a sealed request, or an answer
                     that does not authenticate, is refused (502, x-jwe-proxy-error: <code>).
  watching (--watch) An app that already seals points at the proxy instead of the service. Bytes
                     pass untouched both ways; the proxy opens copies of the envelopes on the side.

One line per exchange: time, method, path, status, outcome (with the error code), kid, sizes and
duration. The proxy forwards only to --upstream: absolute-form requests for other hosts and
CONNECT are refused, and so is any Host header that is not the proxy's own address (DNS
rebinding). It never follows a redirect; one to another origin after a sealed request is refused.

Options:
      --upstream URL    the origin to forward to (required), e.g. https://api.example.com
      --watch           watching mode instead of sealing
      --kid KID         the kid to seal with (with a kid=key list, also picks the key)
      --port N          the port to listen on (default 0: any free port; the URL is printed)
      --verbose         print the opened bodies under each line (JSON pretty-printed, files as
                        name, type, size and SHA-256)
      --no-mask         show identifiers (Aadhaar-like numbers, phones, e-mails) unmasked in --verbose
      --har FILE        write a HAR 1.2 of the session: the sealed bodies as they travelled, and the
                        opened ones beside them in "_opened" fields. Holds plaintext, never a key.
      --ca FILE         trust this CA (PEM) for the upstream, besides the system's
      --insecure        do not check the upstream's certificate (test servers only; every line says so)
      --timeout SECONDS wait this long for the upstream to connect, answer and send (default 60)
      --listen ADDRESS  listen on another address than 127.0.0.1 (warns: others can then use your key)

${KEYS}

      --no-color        no colour (colour is used only on a terminal; NO_COLOR works too)
  -h, --help            this help

Ctrl-C stops taking requests and waits for the exchanges in flight; a second Ctrl-C, or SIGTERM,
cuts them off. Either way the HAR file is complete and the proxy's temporary files are removed.

Examples:
  jwe-transport proxy --upstream https://api.example.com -k key.txt --kid k1 --port 8080
  curl -s localhost:8080/abdm/na/v1/registration/aadhaar/init -H 'content-type: application/json' -d '{"aadhaar_number":"999941057058"}'
  curl -s -F file=@scan.pdf 'localhost:8080/mr/api/v2/docs?task=smart'
  jwe-transport proxy --watch --upstream https://staging.example.com -k keys.txt --har session.har --verbose
`,
  expand: `Usage: jwe-transport expand [FILE|-] [options]

Converts a compact JWE protected..iv.ciphertext.tag to a flattened JSON envelope.

Options:
      --kid KID         add the top-level kid member the service expects
  -o, --out PATH        write to PATH instead of stdout
  -f, --force           overwrite PATH if it exists

${COMMON}

Example:
  jwe-transport expand token.txt --kid k1

${EXIT_CODES}
`,
};

export function helpFor(command: CommandName | undefined): string {
  return command === undefined ? MAIN_HELP : COMMAND_HELP[command];
}
