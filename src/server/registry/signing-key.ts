// @peculiar/x509 resolves its services through tsyringe, which needs this polyfill first.
import "reflect-metadata";
import { randomBytes, webcrypto } from "node:crypto";
import { existsSync } from "node:fs";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import * as x509 from "@peculiar/x509";
import { importPKCS8, type CryptoKey } from "jose";
import { env } from "@/env";

// The key Hangar signs registry tokens with, and the self-signed certificate the registry
// trusts (its `rootcertbundle`). Given by configuration, else generated once into the data folder.

export interface SigningKey {
  privateKey: CryptoKey;
  /** The certificate, PEM (GET /registry/certificate). */
  certificatePem: string;
  /** The certificate's DER, base64: the JWT header's x5c. */
  certificateDer: string;
}

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const VALID_YEARS = 10;
const FILE = "registry-signing.pem";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

async function generatePem(): Promise<string> {
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

/** The data folder's key and certificate, written once (atomically: two processes may race). */
async function localPem(dataDir: string): Promise<string> {
  const target = path.join(dataDir, FILE);
  if (!existsSync(target)) {
    await mkdir(dataDir, { recursive: true });
    const staging = `${target}.${process.pid}.${randomBytes(4).toString("hex")}`;
    await writeFile(staging, await generatePem(), { mode: 0o600 });
    try {
      await link(staging, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      await rm(staging, { force: true });
    }
  }
  return readFile(target, "utf8");
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
      : await localPem(path.resolve(env.HANGAR_DATA_DIR)).then((pem) => [pem, pem] as const);
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
