import { redirect } from "next/navigation";
import { auth } from "@/server/auth/nextauth";

export default async function HomePage() {
  const session = await auth();
  redirect(session?.userId ? "/deployments" : "/signin");
}
