import { hash, verify } from "@node-rs/argon2";

// Argon2id with the library's defaults (OWASP-recommended parameters).
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
