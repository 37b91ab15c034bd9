import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software authenticator for API tests: it makes a passkey (an ES256 key, attestation "none") and signs challenges
 * as a browser's authenticator would, so that tests can answer the server's WebAuthn options with real responses,
 * or with forged ones. Only what WebAuthn's verification reads is built (W3C WebAuthn Level 3, §6.1, §6.5, §8.7).
 */

/** The few CBOR items an attestation object needs (RFC 8949): integers, byte and text strings, maps. */
function cbor(value: number | Buffer | string | Map<number | string, unknown>): Buffer {
  const head = (major: number, length: number) => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    return Buffer.from([(major << 5) | 25, length >> 8, length & 255]);
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  const entries = [...value].flatMap(([key, item]) => [cbor(key), cbor(item as Parameters<typeof cbor>[0])]);
  return Buffer.concat([head(5, value.size), ...entries]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Buffer) => data.toString('base64url');
/** User present and user verified; with the attested credential data for a new passkey. */
const flags = { signIn: 0x05, registration: 0x45 } as const;

export interface Ceremony {
  /** The challenge, from the server's options. */
  challenge: string;
  /** The page's origin the browser reports; the server's own by default. */
  origin: string;
  /** The relying party's id (the host of PUBLIC_URL). */
  rpId: string;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly key: KeyObject;
  private readonly publicKey: { x: Buffer; y: Buffer };
  private counter = 0;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.key = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.publicKey = { x: Buffer.from(jwk.x ?? '', 'base64url'), y: Buffer.from(jwk.y ?? '', 'base64url') };
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', { challenge, origin }: Ceremony): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** A new passkey's RegistrationResponseJSON. */
  register(ceremony: Ceremony) {
    // A COSE EC2 key: kty 2, alg -7 (ES256), crv 1 (P-256), x, y.
    const coseKey = new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, this.publicKey.x],
      [-3, this.publicKey.y],
    ]);
    const idLength = Buffer.from([this.credentialId.length >> 8, this.credentialId.length & 255]);
    const authData = Buffer.concat([
      sha256(ceremony.rpId),
      Buffer.from([flags.registration, 0, 0, 0, 0]),
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      cbor(coseKey),
    ]);
    const attestation = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', ceremony)),
        attestationObject: b64(attestation),
        transports: ['internal'],
      },
    };
  }

  /** A signature of the challenge: an AuthenticationResponseJSON. Each one counts up the signature counter. */
  signIn(ceremony: Ceremony) {
    this.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const authData = Buffer.concat([sha256(ceremony.rpId), Buffer.from([flags.signIn]), counter]);
    const clientData = this.clientData('webauthn.get', ceremony);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.key);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(clientData),
        authenticatorData: b64(authData),
        signature: b64(signature),
      },
    };
  }
}
