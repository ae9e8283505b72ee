/** Where the envelope came from; a constructed Response would otherwise report an empty url. */
export interface ResponseOrigin {
  url: string;
  redirected: boolean;
}

// Response.text() decodes UTF-8 the same way: replacement characters, leading BOM dropped.
const utf8 = new TextDecoder();

function unusable(): TypeError {
  return new TypeError('Body is unusable: the body of this response has already been read.');
}

/**
 * A Response whose body is the decrypted plaintext, held as bytes until something asks for a
 * stream. A stream-backed Response costs more to build and to read back than decrypting a
 * 1 KiB envelope does, and most callers only ever call `.json()` or `.text()`: those, and
 * `arrayBuffer()` and `bytes()`, answer from the bytes. `body`, `blob()`, `formData()` and
 * clones of a streamed body go through a genuine Response made on first use, so a body is
 * read once whichever way it is read, exactly as with any other Response.
 */
export class DecryptedResponse extends Response {
  #plaintext: Uint8Array | undefined;
  #used = false;
  /** The genuine Response behind `body`, made when a stream is first needed. */
  #streamed: Response | undefined;
  readonly #origin: ResponseOrigin;

  constructor(plaintext: Uint8Array, init: ResponseInit, origin: ResponseOrigin) {
    super(null, init);
    this.#plaintext = plaintext;
    this.#origin = origin;
  }

  static {
    // The DOM typings declare these as data properties, so they are replaced here, not in the class body.
    Object.defineProperties(DecryptedResponse.prototype, {
      url: {
        configurable: true,
        get(this: DecryptedResponse) {
          return this.#origin.url;
        },
      },
      redirected: {
        configurable: true,
        get(this: DecryptedResponse) {
          return this.#origin.redirected;
        },
      },
      body: {
        configurable: true,
        get(this: DecryptedResponse) {
          return this.#stream().body;
        },
      },
      bodyUsed: {
        configurable: true,
        get(this: DecryptedResponse) {
          return this.#streamed ? this.#streamed.bodyUsed : this.#used;
        },
      },
    });
  }

  /** The plaintext, once: later reads fail as they do on any Response. */
  #take(): Uint8Array | undefined {
    if (this.#used) return undefined;
    this.#used = true;
    const bytes = this.#plaintext;
    this.#plaintext = undefined;
    return bytes;
  }

  /** What a copy of this response is made with (the constructor copies the headers). */
  #init(): ResponseInit {
    return { status: this.status, statusText: this.statusText, headers: this.headers };
  }

  #stream(): Response {
    if (this.#streamed) return this.#streamed;
    const bytes = this.#take();
    const streamed = new Response(
      bytes ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(0),
      this.#init(),
    );
    // Already read through a method: the stream must say so too (disturbed, and no second read).
    if (!bytes) streamed.arrayBuffer().catch(() => undefined);
    this.#streamed = streamed;
    return streamed;
  }

  override text(): Promise<string> {
    if (this.#streamed) return this.#streamed.text();
    const bytes = this.#take();
    return bytes ? Promise.resolve(utf8.decode(bytes)) : Promise.reject(unusable());
  }

  override async json(): Promise<unknown> {
    if (this.#streamed) return this.#streamed.json();
    return JSON.parse(await this.text());
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#streamed) return this.#streamed.arrayBuffer();
    const bytes = this.#take();
    // A copy: the caller owns the result, and the plaintext may share a larger buffer.
    return bytes ? Promise.resolve(bytes.slice().buffer as ArrayBuffer) : Promise.reject(unusable());
  }

  /** `Response.bytes()`, on every runtime: Node 20's own Response does not have it. */
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const streamed = this.#streamed;
    if (streamed) return streamed.arrayBuffer().then((buffer) => new Uint8Array(buffer));
    const bytes = this.#take();
    return bytes ? Promise.resolve(bytes.slice() as Uint8Array<ArrayBuffer>) : Promise.reject(unusable());
  }

  override blob(): Promise<Blob> {
    return this.#stream().blob();
  }

  override formData(): Promise<FormData> {
    return this.#stream().formData();
  }

  override clone(): Response {
    if (this.bodyUsed)
      throw new TypeError('Response.clone: the body of this response has already been read.');
    if (!this.#streamed) return new DecryptedResponse(this.#plaintext!, this.#init(), this.#origin);
    const copy = this.#streamed.clone();
    Object.defineProperties(copy, {
      url: { value: this.#origin.url },
      redirected: { value: this.#origin.redirected },
    });
    return copy;
  }
}
