// @peculiar/x509 resolves its services through tsyringe, which needs this polyfill first.
import "reflect-metadata";
import { randomBytes, webcrypto } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import * as x509 from "@peculiar/x509";
import { importPKCS8, type CryptoKey } from "jose";
import { env } from "@/env";
import { installationSecret } from "@/server/installation/secrets";

// The key Hangar signs registry tokens with, and the self-signed certificate the registry
// trusts (its `rootcertbundle`). Given by configuration, else generated once for the whole
// installation and kept in the database, encrypted (every instance signs with the same key).

export interface SigningKey {
  privateKey: CryptoKey;
  /** The certificate, PEM (GET /registry/certificate). */
  certificatePem: string;
  /** The certificate's DER, base64: the JWT header's x5c. */
  certificateDer: string;
}

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const VALID_YEARS = 10;

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export async function generatePem(): Promise<string> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, [
    "sign",
    "verify",
  ])) as unknown as CryptoKeyPair;
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    // A positive serial: the first byte's high bit clear.
    serialNumber: "01" + randomBytes(15).toString("hex"),
    name: "CN=Hangar registry token signer",
    notBefore: new Date(now - 5 * 60_000),
    notAfter: new Date(now + VALID_YEARS * 365 * 24 * 3600_000),
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey("pkcs8", keys.privateKey as never);
  const keyPem = x509.PemConverter.encode(pkcs8, "PRIVATE KEY");
  return `${keyPem}\n${certificate.toString("pem")}\n`;
}

/** The installation's key and certificate (an upgraded install's data-folder file adopted). */
function installationPem(): Promise<string> {
  if (!env.DATABASE_URL)
    throw new Error("DATABASE_URL is not set: the registry signing key lives in the database.");
  return installationSecret(env.DATABASE_URL, "registry_signing_pem", {
    dataDir: path.resolve(env.HANGAR_DATA_DIR),
    generate: generatePem,
  });
}

function pemBlock(pem: string, label: string): string {
  const match = new RegExp(`-----BEGIN ${label}-----[\\s\\S]+?-----END ${label}-----`).exec(pem);
  if (!match) throw new Error(`Registry signing material: no ${label} block found.`);
  return match[0];
}

async function loadSigningKey(): Promise<SigningKey> {
  const { HANGAR_REGISTRY_KEY_FILE: keyFile, HANGAR_REGISTRY_CERT_FILE: certFile } = env;
  const [keyText, certText] =
    keyFile && certFile
      ? await Promise.all([readFile(keyFile, "utf8"), readFile(certFile, "utf8")])
      : await installationPem().then((pem) => [pem, pem] as const);
  const certificatePem = pemBlock(certText, "CERTIFICATE");
  const certificate = new x509.X509Certificate(certificatePem);
  return {
    privateKey: await importPKCS8(pemBlock(keyText, "PRIVATE KEY"), "ES256"),
    certificatePem: certificatePem + "\n",
    certificateDer: Buffer.from(certificate.rawData).toString("base64"),
  };
}

let loading: Promise<SigningKey> | undefined;

/** The process's signing key, loaded (or generated) once. */
export function registrySigningKey(): Promise<SigningKey> {
  loading ??= loadSigningKey().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
