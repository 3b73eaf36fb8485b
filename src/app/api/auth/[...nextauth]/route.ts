import { handlers } from "@/server/auth/nextauth";

export const { GET, POST } = handlers;
