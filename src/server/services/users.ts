import type { User as UserRow } from "@/generated/prisma/client";
import { hashPassword } from "@/server/auth/passwords";
import type { Db } from "@/server/db";
import { conflict, isUniqueViolation } from "@/server/errors";
import type { CreateUserInput, User } from "@/schemas/users";

const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  created_at: row.createdAt.toISOString(),
});

/**
 * Operator only (admin command). Not audited here: a user belongs to no organization until a
 * membership is added, and adding one is audited in its workspace.
 */
export async function createUser(db: Db, input: CreateUserInput): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await db.user.create({
      data: { email: input.email, name: input.name ?? null, passwordHash },
    });
    return toUser(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`A user with email ${input.email} already exists.`);
    throw error;
  }
}
